extension [UInt8] {
    /// Appends a literal's UTF-8 bytes in one copy. Writers append keys and punctuation several
    /// times per value, and a `String`'s UTF-8 view reaches the bytes by a slower, generic path.
    mutating func append(literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
