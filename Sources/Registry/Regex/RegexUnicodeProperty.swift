/// `\p{…}` and `\P{…}`: a Unicode property test on one scalar. Names are matched loosely
/// (case, `_`, `-` and spaces ignored, as UAX #44 LM3 allows) so `\p{digit}` and
/// `\p{Decimal_Number}` both mean General_Category Nd.
struct RegexUnicodeProperty: Sendable {
    let name: String
    let negated: Bool
    let test: @Sendable (Unicode.Scalar) -> Bool

    init(name: String, negated: Bool, test: @escaping @Sendable (Unicode.Scalar) -> Bool) {
        self.name = name
        self.negated = negated
        self.test = test
    }

    /// The property `\p{text}` names, or nil when it names none this engine knows. Scripts
    /// (`Script=Greek`) are not known: Swift's standard library has no script data.
    static func named(_ text: String, negated: Bool) -> RegexUnicodeProperty? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2 {
            guard ["generalcategory", "gc"].contains(loose(parts[0])),
                  let categories = generalCategories[loose(parts[1])] else { return nil }
            return RegexUnicodeProperty(name: text, negated: negated) { categories.contains($0.properties.generalCategory) }
        }
        let key = loose(text)
        if let categories = generalCategories[key] {
            return RegexUnicodeProperty(name: text, negated: negated) { categories.contains($0.properties.generalCategory) }
        }
        if let binary = binaryProperties[key] {
            return RegexUnicodeProperty(name: text, negated: negated, test: binary)
        }
        return nil
    }

    private static func loose(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { !"_- ".unicodeScalars.contains($0) })).lowercased()
    }

    private static let generalCategories: [String: [Unicode.GeneralCategory]] = {
        let letters: [Unicode.GeneralCategory] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let marks: [Unicode.GeneralCategory] = [.nonspacingMark, .spacingMark, .enclosingMark]
        let numbers: [Unicode.GeneralCategory] = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: [Unicode.GeneralCategory] = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
        ]
        let symbols: [Unicode.GeneralCategory] = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separators: [Unicode.GeneralCategory] = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let others: [Unicode.GeneralCategory] = [.control, .format, .surrogate, .privateUse, .unassigned]
        let table: [([String], [Unicode.GeneralCategory])] = [
            (["L", "Letter"], letters), (["LC", "Cased_Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            (["Lu", "Uppercase_Letter"], [.uppercaseLetter]), (["Ll", "Lowercase_Letter"], [.lowercaseLetter]),
            (["Lt", "Titlecase_Letter"], [.titlecaseLetter]), (["Lm", "Modifier_Letter"], [.modifierLetter]),
            (["Lo", "Other_Letter"], [.otherLetter]),
            (["M", "Mark", "Combining_Mark"], marks), (["Mn", "Nonspacing_Mark"], [.nonspacingMark]),
            (["Mc", "Spacing_Mark"], [.spacingMark]), (["Me", "Enclosing_Mark"], [.enclosingMark]),
            (["N", "Number"], numbers), (["Nd", "Decimal_Number", "digit"], [.decimalNumber]),
            (["Nl", "Letter_Number"], [.letterNumber]), (["No", "Other_Number"], [.otherNumber]),
            (["P", "Punctuation", "punct"], punctuation), (["Pc", "Connector_Punctuation"], [.connectorPunctuation]),
            (["Pd", "Dash_Punctuation"], [.dashPunctuation]), (["Ps", "Open_Punctuation"], [.openPunctuation]),
            (["Pe", "Close_Punctuation"], [.closePunctuation]), (["Pi", "Initial_Punctuation"], [.initialPunctuation]),
            (["Pf", "Final_Punctuation"], [.finalPunctuation]), (["Po", "Other_Punctuation"], [.otherPunctuation]),
            (["S", "Symbol"], symbols), (["Sm", "Math_Symbol"], [.mathSymbol]), (["Sc", "Currency_Symbol"], [.currencySymbol]),
            (["Sk", "Modifier_Symbol"], [.modifierSymbol]), (["So", "Other_Symbol"], [.otherSymbol]),
            (["Z", "Separator"], separators), (["Zs", "Space_Separator"], [.spaceSeparator]),
            (["Zl", "Line_Separator"], [.lineSeparator]), (["Zp", "Paragraph_Separator"], [.paragraphSeparator]),
            (["C", "Other"], others), (["Cc", "Control", "cntrl"], [.control]), (["Cf", "Format"], [.format]),
            (["Cs", "Surrogate"], [.surrogate]), (["Co", "Private_Use"], [.privateUse]), (["Cn", "Unassigned"], [.unassigned]),
        ]
        var result: [String: [Unicode.GeneralCategory]] = [:]
        for (names, categories) in table { for name in names { result[loose(name)] = categories } }
        return result
    }()

    /// ECMA-262's binary properties that `Unicode.Scalar.Properties` answers.
    private static let binaryProperties: [String: @Sendable (Unicode.Scalar) -> Bool] = {
        let table: [([String], @Sendable (Unicode.Scalar) -> Bool)] = [
            (["Any"], { _ in true }), (["ASCII"], { $0.isASCII }),
            (["Assigned"], { $0.properties.generalCategory != .unassigned }),
            (["ASCII_Hex_Digit", "AHex"], { $0.properties.isASCIIHexDigit }),
            (["Alphabetic", "Alpha"], { $0.properties.isAlphabetic }),
            (["Bidi_Control", "Bidi_C"], { $0.properties.isBidiControl }),
            (["Bidi_Mirrored", "Bidi_M"], { $0.properties.isBidiMirrored }),
            (["Case_Ignorable", "CI"], { $0.properties.isCaseIgnorable }), (["Cased"], { $0.properties.isCased }),
            (["Changes_When_Casefolded", "CWCF"], { $0.properties.changesWhenCaseFolded }),
            (["Changes_When_Casemapped", "CWCM"], { $0.properties.changesWhenCaseMapped }),
            (["Changes_When_Lowercased", "CWL"], { $0.properties.changesWhenLowercased }),
            (["Changes_When_NFKC_Casefolded", "CWKCF"], { $0.properties.changesWhenNFKCCaseFolded }),
            (["Changes_When_Titlecased", "CWT"], { $0.properties.changesWhenTitlecased }),
            (["Changes_When_Uppercased", "CWU"], { $0.properties.changesWhenUppercased }),
            (["Dash"], { $0.properties.isDash }),
            (["Default_Ignorable_Code_Point", "DI"], { $0.properties.isDefaultIgnorableCodePoint }),
            (["Deprecated", "Dep"], { $0.properties.isDeprecated }), (["Diacritic", "Dia"], { $0.properties.isDiacritic }),
            (["Emoji"], { $0.properties.isEmoji }), (["Emoji_Modifier", "EMod"], { $0.properties.isEmojiModifier }),
            (["Emoji_Modifier_Base", "EBase"], { $0.properties.isEmojiModifierBase }),
            (["Emoji_Presentation", "EPres"], { $0.properties.isEmojiPresentation }),
            (["Extender", "Ext"], { $0.properties.isExtender }),
            (["Grapheme_Base", "Gr_Base"], { $0.properties.isGraphemeBase }),
            (["Grapheme_Extend", "Gr_Ext"], { $0.properties.isGraphemeExtend }),
            (["Hex_Digit", "Hex"], { $0.properties.isHexDigit }),
            (["IDS_Binary_Operator", "IDSB"], { $0.properties.isIDSBinaryOperator }),
            (["IDS_Trinary_Operator", "IDST"], { $0.properties.isIDSTrinaryOperator }),
            (["ID_Continue", "IDC"], { $0.properties.isIDContinue }), (["ID_Start", "IDS"], { $0.properties.isIDStart }),
            (["Ideographic", "Ideo"], { $0.properties.isIdeographic }),
            (["Join_Control", "Join_C"], { $0.properties.isJoinControl }),
            (["Logical_Order_Exception", "LOE"], { $0.properties.isLogicalOrderException }),
            (["Lowercase", "Lower"], { $0.properties.isLowercase }), (["Math"], { $0.properties.isMath }),
            (["Noncharacter_Code_Point", "NChar"], { $0.properties.isNoncharacterCodePoint }),
            (["Pattern_Syntax", "Pat_Syn"], { $0.properties.isPatternSyntax }),
            (["Pattern_White_Space", "Pat_WS"], { $0.properties.isPatternWhitespace }),
            (["Quotation_Mark", "QMark"], { $0.properties.isQuotationMark }), (["Radical"], { $0.properties.isRadical }),
            (["Regional_Indicator", "RI"], { (0x1F1E6...0x1F1FF).contains($0.value) }),
            (["Sentence_Terminal", "STerm"], { $0.properties.isSentenceTerminal }),
            (["Soft_Dotted", "SD"], { $0.properties.isSoftDotted }),
            (["Terminal_Punctuation", "Term"], { $0.properties.isTerminalPunctuation }),
            (["Unified_Ideograph", "UIdeo"], { $0.properties.isUnifiedIdeograph }),
            (["Uppercase", "Upper"], { $0.properties.isUppercase }),
            (["Variation_Selector", "VS"], { $0.properties.isVariationSelector }),
            (["White_Space", "space"], { $0.properties.isWhitespace }),
            (["XID_Continue", "XIDC"], { $0.properties.isXIDContinue }), (["XID_Start", "XIDS"], { $0.properties.isXIDStart }),
        ]
        var result: [String: @Sendable (Unicode.Scalar) -> Bool] = [:]
        for (names, test) in table { for name in names { result[loose(name)] = test } }
        return result
    }()
}
