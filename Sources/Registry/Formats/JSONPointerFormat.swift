/// RFC 6901 JSON Pointers and draft-bhutton-relative-json-pointer-00.
enum JSONPointerFormat {
    /// Empty, or `/`-prefixed reference tokens in which `~` is followed only by `0` or `1`.
    static func isPointer(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first else { return true }
        guard first == "/" else { return false }
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if scalars[index] == "~" {
                let next = scalars.index(after: index)
                guard next < scalars.endIndex, scalars[next] == "0" || scalars[next] == "1" else { return false }
                index = next
            }
            index += 1
        }
        return true
    }

    /// A non-negative integer without leading zeros, then `#` or a JSON Pointer.
    static func isRelativePointer(_ scalars: [Unicode.Scalar]) -> Bool {
        var index = 0
        while index < scalars.count, scalars[index].isASCIIDigit { index += 1 }
        guard index > 0, scalars[0] != "0" || index == 1 else { return false }
        if index < scalars.count, scalars[index] == "#" { return index + 1 == scalars.count }
        return isPointer(scalars[index...])
    }
}
