/// The keywords of one value's own kind: string lengths, patterns and formats, number bounds.
extension SchemaEvaluator {
    /// Lengths count Unicode scalars, as JSON Schema counts characters (RFC 8259 code points):
    /// not grapheme clusters (👨‍🍳 is 3) and not UTF-8 bytes.
    mutating func checkString(_ text: String, _ check: SchemaCheck, _ context: KeywordContext, into out: inout EvaluationOutput) {
        switch check {
        case .minLength(let minimum):
            let length = text.unicodeScalars.count
            if length < minimum { context.fail("must be at least \(minimum) characters long, not \(length)", into: &out) }
        case .maxLength(let maximum):
            let length = text.unicodeScalars.count
            if length > maximum { context.fail("must be at most \(maximum) characters long, not \(length)", into: &out) }
        case .pattern(let regex):
            switch regex.search(text, budget: &budget) {
            case nil: exhausted = true
            case false?: context.fail("must match the pattern \(ClientText.shown(regex.pattern))", into: &out)
            case true?: break
            }
        case .format(let format):
            guard JSONSchemaFormat.check(format, text) == false else { return }
            let failure = context.failure("must be a valid \(ClientText.shown(format))")
            if options.assertFormats { out.failures.append(failure) } else { out.formatMismatches.append(failure) }
        default:
            break
        }
    }

    mutating func checkNumber(_ lexeme: String, _ check: SchemaCheck, _ context: KeywordContext, into out: inout EvaluationOutput) {
        let number = JSONNumber(lexeme)
        let shown = ClientText.shown(lexeme)
        switch check {
        case .minimum(let minimum) where number < minimum:
            context.fail("must be at least \(ClientText.shown(minimum.lexeme)), not \(shown)", into: &out)
        case .maximum(let maximum) where maximum < number:
            context.fail("must be at most \(ClientText.shown(maximum.lexeme)), not \(shown)", into: &out)
        case .exclusiveMinimum(let minimum) where !(minimum < number):
            context.fail("must be greater than \(ClientText.shown(minimum.lexeme)), not \(shown)", into: &out)
        case .exclusiveMaximum(let maximum) where !(number < maximum):
            context.fail("must be less than \(ClientText.shown(maximum.lexeme)), not \(shown)", into: &out)
        case .multipleOf(let step) where number.isMultiple(of: step) == false:
            context.fail("must be a multiple of \(ClientText.shown(step.lexeme)), not \(shown)", into: &out)
        default:
            break
        }
    }
}

/// Failure texts that show schema or instance values, each bounded so a large value is never
/// echoed whole.
enum SchemaMessages {
    static let maxListed = 10

    /// A JSON value as text, cut to `ClientText.maxShownBytes`.
    static func shown(_ value: JSONValue) -> String {
        ClientText.shown(JSONWriter.string(value))
    }

    /// `must be one of "a", "b"`, listing at most `maxListed` values.
    static func oneOfValues(_ options: [JSONValue]) -> String {
        let listed = options.prefix(maxListed).map(shown).joined(separator: ", ")
        return options.count > maxListed ? "must be one of \(listed), … (\(options.count) values)" : "must be one of \(listed)"
    }

    /// The `type` failure, worded as the push checks word it.
    static func type(_ names: [String], _ value: JSONValue) -> String {
        let expected = names.joined(separator: " or ")
        switch value {
        case .null: return "must not be null: the schema's type (\(expected)) does not include null"
        case .number(let lexeme): return "must be \(expected), not the number \(ClientText.shown(lexeme))"
        default: return "must be \(expected), not \(value.typeName)"
        }
    }
}
