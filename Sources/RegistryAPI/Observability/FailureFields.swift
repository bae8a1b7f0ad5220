import Registry

extension RegistryError {
    /// What a log line shows of a failure: its code and message, as the client saw them, and its
    /// cause, which the client never sees (`cause_kind`, `cause_sqlstate`, `cause_statement`,
    /// `cause`). A cause holds no secrets or values by construction, so it is logged as it is.
    public var logFields: JSONObject {
        var fields: JSONObject = ["code": .number(String(code.rawValue)), "error": .string(message)]
        guard let cause else { return fields }
        fields["cause_kind"] = .string(cause.kind)
        if let sqlState = cause.sqlState { fields["cause_sqlstate"] = .string(sqlState) }
        if let statement = cause.statement { fields["cause_statement"] = .string(statement) }
        if let message = cause.message { fields["cause"] = .string(message) }
        return fields
    }

    /// The fields of any error a background job met: a store throws `RegistryError`s, and
    /// anything else is named by its type only, since its text may hold anything.
    public static func logFields(of error: any Error) -> JSONObject {
        if let error = error as? RegistryError { return error.logFields }
        return ["error": .string("unexpected \(type(of: error))")]
    }
}
