import PetServer
import Testing

@Suite struct PostgresAnimalStoreConfigurationTests {
    @Test func givenFullURL_whenParsing_thenEveryPartIsRead() throws {
        let configuration = try PostgresAnimalStore.Configuration(
            url: "postgres://pets%40app:p%3Ass@db.example.com:6432/petspot?sslmode=require&schema=pets_eu&pool_size=25"
        )
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6432)
        #expect(configuration.username == "pets@app")
        #expect(configuration.password == "p:ss")
        #expect(configuration.database == "petspot")
        #expect(configuration.tls == .require)
        #expect(configuration.schema == "pets_eu")
        #expect(configuration.poolSize == 25)
        #expect(configuration.displayURL == "postgres://pets@app@db.example.com:6432/petspot")
    }

    @Test func givenMinimalURL_whenParsing_thenDefaultsApply() throws {
        let configuration = try PostgresAnimalStore.Configuration(url: "postgresql://petspot@localhost/pets")
        #expect(configuration.port == 5432)
        #expect(configuration.password == nil)
        #expect(configuration.tls == .prefer)
        #expect(configuration.schema == "public")
        #expect(configuration.poolSize == PostgresAnimalStore.Configuration.defaultPoolSize)
        #expect(configuration.countCap == AnimalPage.defaultCountCap)
    }

    @Test(arguments: [
        ("postgres://localhost/pets", "the user name is missing"),
        ("postgres://petspot@/pets", "the host is missing"),
        ("postgres://petspot@localhost", "the database name is missing"),
        ("postgres://petspot@localhost:5432/", "the database name is missing"),
        ("postgres://petspot@localhost/pets?sslmode=sometimes", "sslmode must be one of disable, prefer, require, verify-full"),
        ("postgres://petspot@localhost/pets?schema=Drop%20Table", "schema must be a lower-case SQL identifier"),
        ("postgres://petspot@localhost/pets?pool_size=0", "pool_size must be a whole number between 1 and 1000"),
        // The parameters of the replicas' in-memory index, which PostGIS replaced.
        ("postgres://petspot@localhost/pets?position_index=off", "unknown parameter \"position_index\" (known: sslmode, schema, pool_size)"),
        ("postgres://petspot@localhost/pets?timeout=3", "unknown parameter \"timeout\""),
        ("mysql://petspot@localhost/pets", "expected postgres://USER@HOST:PORT/DATABASE"),
    ])
    func givenBadURL_whenParsing_thenErrorNamesWhatIsWrong(url: String, reason: String) {
        #expect {
            try PostgresAnimalStore.Configuration(url: url)
        } throws: { error in
            guard case PostgresAnimalStoreError.invalidURL(_, let actual) = error else { return false }
            return actual.hasPrefix(reason)
        }
    }

    @Test func givenURLWithPassword_whenRefused_thenPasswordIsNotRepeated() {
        #expect {
            try PostgresAnimalStore.Configuration(url: "postgres://petspot:hunter2@localhost/pets?sslmode=maybe")
        } throws: { error in
            "\(error)".contains("***") && !"\(error)".contains("hunter2")
        }
    }
}
