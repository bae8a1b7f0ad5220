print("schema-registry")
