print(Help.text)
