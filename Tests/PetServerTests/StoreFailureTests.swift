import GRDB
import PetServer
import Testing

@Suite struct StoreFailureTests {
    @Test(arguments: [
        (ResultCode.SQLITE_FULL, "the disk is full"), (.SQLITE_IOERR, "the disk is full"),
        (.SQLITE_READONLY, "may not be written"), (.SQLITE_CANTOPEN, "cannot be opened"),
        (.SQLITE_NOTADB, "not a PetSpot database"), (.SQLITE_BUSY, "busy timeout"),
    ])
    func givenADatabaseFailure_whenDescribed_thenItNamesTheFileAndTheCause(_ code: ResultCode, _ cause: String) throws {
        let text = try #require(StoreFailure.describe(DatabaseError(resultCode: code, message: "raw words"), database: "/data/pets.sqlite"))
        #expect(text.contains("/data/pets.sqlite"))
        #expect(text.contains(cause))
        #expect(text.contains("raw words"))
    }

    @Test func givenAnErrorOfAnotherKind_whenDescribed_thenNil() {
        #expect(StoreFailure.describe(DatabaseError(resultCode: .SQLITE_CONSTRAINT), database: "x") == nil)
        #expect(StoreFailure.describe(CancellationError(), database: "x") == nil)
    }
}
