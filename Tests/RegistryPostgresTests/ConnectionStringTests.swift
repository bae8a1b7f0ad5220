import RegistryPostgres
import Testing

/// The start-up log shows the connection string as libpq reads it, never its password, in
/// every spelling libpq accepts.
@Suite struct ConnectionStringTests {
    struct Spelling: Sendable, CustomTestStringConvertible {
        let connectionString: String
        let secret: String
        /// Fields that must still be shown.
        let shown: [String]
        var testDescription: String { connectionString }
    }

    static let spellings = [
        Spelling(
            connectionString: "postgresql://app:s3cret@db.internal:5433/registry", secret: "s3cret",
            shown: ["user=app", "host=db.internal", "port=5433", "dbname=registry", "password=*****"]),
        Spelling(
            connectionString: "postgresql://app@db.internal/registry?password=q-s3cret&sslmode=require", secret: "q-s3cret",
            shown: ["user=app", "host=db.internal", "dbname=registry", "sslmode=require", "password=*****"]),
        Spelling(
            connectionString: "postgres://app:pct%2Fs3cret@db.internal/registry", secret: "s3cret",
            shown: ["user=app", "dbname=registry"]),
        Spelling(
            connectionString: "host=db.internal user=app password=kv-s3cret dbname=registry", secret: "kv-s3cret",
            shown: ["host=db.internal", "user=app", "dbname=registry", "password=*****"]),
        Spelling(
            connectionString: "host=db.internal password = spaced-s3cret user=app", secret: "spaced-s3cret",
            shown: ["host=db.internal", "user=app", "password=*****"]),
        Spelling(
            connectionString: "host=db.internal password='a b s3cret' user=app", secret: "s3cret",
            shown: ["host=db.internal", "user=app", "password=*****"]),
        Spelling(
            connectionString: #"host=db.internal password='it\'s s3cret' user=app"#, secret: "s3cret",
            shown: ["host=db.internal"]),
        Spelling(
            connectionString: "host=db.internal sslpassword=key-s3cret sslkey=/k user=app", secret: "key-s3cret",
            shown: ["host=db.internal", "sslkey=/k", "user=app", "sslpassword=*****"]),
    ]

    @Test(arguments: spellings)
    func everyFieldButThePasswordIsShown(_ spelling: Spelling) {
        let shown = ConnectionString.redacted(spelling.connectionString)
        #expect(!shown.contains(spelling.secret), "\(shown)")
        for field in spelling.shown {
            #expect(shown.split(separator: " ").contains { $0 == field }, "\(field) in \(shown)")
        }
    }

    @Test func valuesWithSpacesAreQuotedAsLibpqReadsThem() {
        let shown = ConnectionString.redacted(#"host=h application_name='my app' options='-c x=\\y' password=x"#)
        #expect(shown.contains("application_name='my app'"), "\(shown)")
        #expect(shown.contains(#"options='-c x=\\y'"#), "\(shown)")
    }

    @Test func anUnparsableStringIsNotEchoed() {
        for text in ["host=h password='unterminated s3cret", "s3cret-without-equals", "postgresql://u:s3cret@h/db?bogus_option=1"] {
            let shown = ConnectionString.redacted(text)
            #expect(!shown.contains("s3cret"), "\(text) → \(shown)")
        }
    }
}
