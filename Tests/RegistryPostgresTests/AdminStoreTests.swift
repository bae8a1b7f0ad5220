import Registry
import RegistryPostgres
import Testing
import TestSupport

@Suite struct AdminStoreTests {
    private func hash(_ seed: UInt8) -> [UInt8] { (0..<32).map { UInt8($0) &+ seed } }

    @Test func tokenLookupFindsOnlyUnrevokedTokens() async throws {
        let f = try Fixture()
        let live = hash(1)
        let revoked = hash(2)
        _ = try f.admin.issueToken(accountID: f.accountID, tokenHash: live)
        let revokedID = try f.admin.issueToken(accountID: f.accountID, tokenHash: revoked)
        #expect(try await f.store.token(forTokenHash: live)?.accountID == f.accountID)
        #expect(try await f.store.token(forTokenHash: revoked)?.accountID == f.accountID)

        #expect(try f.admin.revokeToken(id: revokedID))
        #expect(try await f.store.token(forTokenHash: revoked) == nil)
        #expect(try await f.store.token(forTokenHash: live)?.accountID == f.accountID)
        #expect(try await f.store.token(forTokenHash: hash(3)) == nil)
        #expect(try !f.admin.revokeToken(id: revokedID))
        #expect(try !f.admin.revokeToken(id: 999_999))

        let tokens = try f.admin.listTokens(accountID: f.accountID)
        #expect(tokens.count == 2)
        #expect(tokens[0].revoked == nil)
        #expect(tokens[1].id == revokedID)
        #expect(tokens[1].revoked?.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
    }

    @Test func tokenHashMustBeASHA256DigestAndUnique() throws {
        let f = try Fixture()
        #expect(throws: RegistryError.self) { try f.admin.issueToken(accountID: f.accountID, tokenHash: [1, 2, 3]) }
        _ = try f.admin.issueToken(accountID: f.accountID, tokenHash: hash(9))
        let duplicate = try #require(throws: RegistryError.self) {
            try f.admin.issueToken(accountID: f.accountID, tokenHash: hash(9))
        }
        #expect(duplicate.code == .alreadyExists)
        let unknownAccount = try #require(throws: RegistryError.self) {
            try f.admin.issueToken(accountID: 424_242, tokenHash: hash(10))
        }
        #expect(unknownAccount == .notFound("account 424242 not found"))
    }

    @Test func generatedApplicationCodesHaveTheXXXXXDashXXXXXForm() throws {
        let f = try Fixture()
        let code = try f.admin.createApplication(accountID: f.accountID, name: "Generated")
        #expect(code.wholeMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/) != nil)
        var generator = SystemRandomNumberGenerator()
        let codes = (0..<200).map { _ in AdminStore.generateApplicationCode(using: &generator) }
        #expect(codes.allSatisfy { $0.wholeMatch(of: /[A-Z0-9]{5}-[A-Z0-9]{5}/) != nil })
        #expect(Set(codes).count == codes.count)
    }

    @Test func createApplicationChecksAccountAndCode() async throws {
        let f = try Fixture()
        let unknown = try #require(throws: RegistryError.self) {
            try f.admin.createApplication(accountID: 777_777, name: "Orphan")
        }
        #expect(unknown == .notFound("account 777777 not found"))

        #expect(try f.admin.createApplication(accountID: f.accountID, code: "ABCDE-12345", name: "Named") == "ABCDE-12345")
        let taken = try #require(throws: RegistryError.self) {
            try f.admin.createApplication(accountID: f.accountID, code: "ABCDE-12345", name: "Again")
        }
        #expect(taken == .alreadyExists("application code \"ABCDE-12345\" already exists"))
        let application = try #require(try await f.store.application(code: "ABCDE-12345"))
        #expect(application.name == "Named")
        #expect(application.accountID == f.accountID)
    }

    @Test func applicationListsAreOrderedByCodeAndFilteredByAccount() async throws {
        let f = try Fixture()
        let otherAccount = try f.admin.createAccount(name: "Other")
        _ = try f.admin.createApplication(accountID: f.accountID, code: "ZZZZZ-00000", name: "z")
        _ = try f.admin.createApplication(accountID: f.accountID, code: "AAAAA-00000", name: "a")
        _ = try f.admin.createApplication(accountID: otherAccount, code: "MMMMM-00000", name: "m")

        let mine = try await f.store.applications(accountID: f.accountID)
        #expect(mine.map(\.code) == [f.application.code, "AAAAA-00000", "ZZZZZ-00000"].sorted())
        #expect(try f.admin.listApplications(accountID: f.accountID) == mine)
        #expect(try f.admin.listApplications(accountID: otherAccount).map(\.code) == ["MMMMM-00000"])
        #expect(try f.admin.listApplications().count == 4)
        #expect(try await f.store.applications(accountID: 123_456).isEmpty)
    }
}
