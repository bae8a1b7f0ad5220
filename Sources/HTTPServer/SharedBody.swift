import CMicroHTTPD

/// Hands a body to MHD without copying it: MHD sends from the array's own storage, and this
/// owner keeps that storage alive until MHD destroys the response and calls `release`. A body
/// served from a cache is therefore one block of memory however many responses send it at once.
final class SharedBody {
    /// Never mutated, so its storage (and `address`) stays put for the owner's lifetime.
    let bytes: [UInt8]
    /// The first byte of `bytes`' storage, which MHD reads.
    let address: UnsafeRawPointer?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        address = self.bytes.withUnsafeBytes { $0.baseAddress }
    }

    /// An MHD response sending `body` from its own storage; nil when MHD is out of memory.
    static func response(_ body: [UInt8]) -> OpaquePointer? {
        guard !body.isEmpty else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
        let owner = SharedBody(body)
        let retained = Unmanaged.passRetained(owner).toOpaque()
        let created = MHD_create_response_from_buffer_with_free_callback_cls(
            body.count, UnsafeMutableRawPointer(mutating: owner.address), release, retained)
        if created == nil { release(retained) }
        return created
    }

    /// Called by MHD once the response is destroyed: balances the retain in `response`.
    static let release: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<SharedBody>.fromOpaque(cls).release()
    }
}
