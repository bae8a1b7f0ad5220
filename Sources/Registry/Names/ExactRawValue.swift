extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// The case whose raw value has exactly the bytes of `text`. `init(rawValue:)` compares
    /// with Swift's `String ==`, canonical equivalence: a client's `"\u{212A}"` (KELVIN SIGN)
    /// would match a raw value `"K"`. Words a client sends are matched here instead.
    public init?(exactly text: String) {
        guard let found = Self.allCases.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else { return nil }
        self = found
    }
}
