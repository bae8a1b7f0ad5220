import Testing

@testable import RegistryAPI

@Suite struct PercentDecodingTests {
    @Test func decodesValidSequences() {
        #expect(PercentDecoding.decode("Flight%2FAttributes%20%C3%A9") == "Flight/Attributes é")
    }

    @Test(arguments: ["%", "%2", "%zz", "%C3", "%C0%AF", "%ED%A0%80", "%FF"])
    func rejectsInvalidOrOverlongSequences(text: String) {
        #expect(PercentDecoding.decode(text) == nil)
    }
}
