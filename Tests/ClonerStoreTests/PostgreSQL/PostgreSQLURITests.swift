@testable import ClonerStore
import Testing

/// Redaction needs no server: every libpq spelling of a password becomes `***`.
struct PostgreSQLURITests {
    @Test(arguments: [
        ("postgresql://alice:s3cret@db.example:5432/app", "postgresql://alice:***@db.example:5432/app"),
        ("postgres://alice:p%40ss@/app?host=/run/pg", "postgres://alice:***@/app?host=/run/pg"),
        ("postgresql://alice:p@ss@host/app", "postgresql://alice:***@host/app"),
        (
            "postgresql://alice@/app?host=/tmp&password=s3cret&sslmode=disable",
            "postgresql://alice@/app?host=/tmp&password=***&sslmode=disable"
        ),
        ("postgresql://alice@/app?host=/tmp&port=5432", "postgresql://alice@/app?host=/tmp&port=5432"),
        ("POSTGRESQL://u:pw@h/d", "POSTGRESQL://u:***@h/d"),
        ("host=/tmp dbname=app password=s3cret user=alice", "host=/tmp dbname=app password=*** user=alice"),
        ("host=/tmp password = 'with \\' quote' user=alice", "host=/tmp password = *** user=alice"),
        ("host=/tmp user=alice", "host=/tmp user=alice"),
    ])
    func redacts(uri: String, expected: String) {
        #expect(PostgreSQLURI.redacted(uri) == expected)
    }

    @Test func secretsIncludeDecodedSpellingsAndScrubRemovesThem() {
        let secrets = PostgreSQLURI.secrets(in: "postgresql://u:p%40ssword@/d?password=other-one")
        #expect(secrets.contains("p%40ssword"))
        #expect(secrets.contains("p@ssword"))
        #expect(secrets.contains("other-one"))
        #expect(PostgreSQLURI.scrub("bad token p%40ssword and p@ssword", secrets: secrets) == "bad token *** and ***")
    }

    @Test func recognisesBothSchemes() {
        #expect(PostgreSQLURI.isPostgreSQL("postgres://x"))
        #expect(PostgreSQLURI.isPostgreSQL("postgresql://x"))
        #expect(!PostgreSQLURI.isPostgreSQL("/var/lib/cloner.sqlite"))
        #expect(!PostgreSQLURI.isPostgreSQL("postgresql.sqlite"))
    }

    @Test func advisoryLockKeysAreStableFNV1a() {
        #expect(PostgreSQLConnection.advisoryLockKey("a") == Int64(bitPattern: 0xaf63_dc4c_8601_ec8c))
        #expect(PostgreSQLConnection.advisoryLockKey("cloner.schema") != PostgreSQLConnection.advisoryLockKey("cloner.jobs"))
    }
}
