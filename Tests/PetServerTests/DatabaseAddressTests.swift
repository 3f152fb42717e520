import PetServer
import Testing

@Suite struct DatabaseAddressTests {
    @Test(arguments: ["postgres://petspot@127.0.0.1:5432/petspot", "POSTGRESQL://petspot@127.0.0.1/petspot"])
    func givenPostgresURL_whenReadingDatabaseOption_thenPostgreSQLIsSelected(database: String) throws {
        guard case .postgres(let configuration) = try DatabaseAddress(database) else {
            Issue.record("\(database) should select PostgreSQL")
            return
        }
        #expect(configuration.database == "petspot")
    }

    @Test(arguments: ["petspot.sqlite", "/var/lib/petspot/pets.sqlite", "postgres.sqlite"])
    func givenFilePath_whenReadingDatabaseOption_thenSQLiteFileIsSelected(database: String) throws {
        #expect(try DatabaseAddress(database) == .sqlite(path: database))
    }

    @Test func givenPostgresURLWithPassword_whenDescribed_thenPasswordIsLeftOut() throws {
        #expect(try DatabaseAddress("postgres://petspot:hunter2@db:5433/pets").description == "postgres://petspot@db:5433/pets")
    }
}
