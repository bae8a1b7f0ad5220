import HTTPServer
import Registry

extension HeavyWorkGate {
    /// For the event loop: `answer` right here when it is light (it works on a small schema),
    /// else on a handler thread holding a permit (`admit`), so that a large document is never
    /// parsed or walked on a loop.
    func answer(heavy: Bool, _ answer: @escaping @Sendable () throws(RegistryError) -> HTTPResponse) throws(RegistryError) -> Step {
        guard heavy else { return .respond(try answer()) }
        return try admit(heavy: true) { () throws(RegistryError) in .respond(try answer()) }
    }
}
