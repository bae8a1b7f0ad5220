import Registry
import RegistryPostgres
import Testing
import TestSupport

/// Webhook subscriptions move with an application's export, without their secrets; imported
/// ones start disabled until an operator rotates the secret (the only way to learn it).
@Suite struct WebhookTransferTests {
    @Test func exportsCarryNoSecretAndImportsStartDisabledOnce() async throws {
        let f = try Fixture()
        let secret = WebhookSecret.generate()
        _ = try await f.store.createWebhook(
            application: f.application,
            settings: WebhookSettings(url: "https://ci.example.com/hook", events: [.published, .policyChanged], typePrefix: "Fl", description: "CI"),
            secret: secret, by: .cli)
        let transfer = ApplicationTransfer(pool: f.pool)
        let exported = try transfer.export(applicationCode: f.application.code)
        #expect(exported.webhooks == [
            ApplicationExport.Webhook(url: "https://ci.example.com/hook", events: [.published, .policyChanged], typePrefix: "Fl", description: "CI")
        ])
        let text = JSONWriter.string(exported.json)
        #expect(!text.contains(secret) && !text.contains("whsec_"))
        #expect(try ApplicationExport(json: JSONParser.parse(Array(text.utf8))) == exported)

        let target = try Fixture.makeApplication(admin: f.admin, store: f.store, accountID: f.accountID)
        let outcome = try transfer.importing(exported, intoApplicationCode: target.code, dryRun: false)
        #expect(outcome.webhooksAdded == 1)
        let imported = try #require(try await f.store.webhooks(application: target).first)
        #expect(!imported.enabled)
        #expect(imported.disabledReason == "imported: rotate the secret and enable it")
        #expect(imported.events == [.published, .policyChanged] && imported.typePrefix == "Fl")
        #expect(try transfer.importing(exported, intoApplicationCode: target.code, dryRun: false).webhooksAdded == 0)
    }

    @Test func aDocumentWithoutWebhooksReadsAsNoneAndBadOnesNameTheirPath() throws {
        let base = #"{"format":"live-activity-schema-registry-export","format_version":1,"application":"A","types":[],"policies":[]"#
        #expect(try ApplicationExport(json: JSONParser.parse(Array((base + "}").utf8))).webhooks.isEmpty)
        #expect(try ApplicationExport(json: JSONParser.parse(Array((base + #","webhooks":[]}"#).utf8))).webhooks.isEmpty)
        let bad = [
            (#"[{"url":"ftp://x/","events":["published"],"type_prefix":"","description":""}]"#, "webhooks[0].url"),
            (#"[{"url":"https://x/","events":[],"type_prefix":"","description":""}]"#, "webhooks[0].events"),
            (#"[{"url":"https://x/","events":["renamed"],"type_prefix":"","description":""}]"#, "webhooks[0].events"),
            (#"[{"url":"https://x/","events":["published"],"description":""}]"#, "webhooks[0].type_prefix"),
            (#"{}"#, "webhooks"),
        ]
        for (webhooks, path) in bad {
            let document = try JSONParser.parse(Array((base + #","webhooks":"# + webhooks + "}").utf8))
            #expect(throws: RegistryError.self, "\(path)") { try ApplicationExport(json: document) }
            do { _ = try ApplicationExport(json: document) } catch { #expect(error.message.hasPrefix(path), "\(error.message)") }
        }
    }
}
