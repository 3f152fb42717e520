import Logging
import PostgresNIO

/// Checks a PostgreSQL database before ``PostgresAnimalStore`` uses it and brings its schema up to date.
///
/// Runs on one plain connection (not the pool), so an unreachable server or a refused login fails at
/// once with a clear error instead of leaving requests waiting. Several replicas may start together:
/// an advisory lock makes them migrate one after another, and each step runs once.
enum PostgresMigration {
    /// Numbered schema steps; a step never changes once released, new ones are appended.
    static func steps(schema: String) -> [(version: Int, name: String, sql: [String])] {
        let table = "\"\(schema)\".pet"
        return [
            (1, "pets with a geography location, a GiST index and a newest-first index", [
                """
                CREATE TABLE \(table) (
                    id text COLLATE "C" PRIMARY KEY,
                    name text NOT NULL,
                    species text NOT NULL,
                    breed text NOT NULL,
                    sex text NOT NULL,
                    age_months integer NOT NULL,
                    description text NOT NULL,
                    photo_url text,
                    shelter_name text NOT NULL,
                    shelter_city text NOT NULL,
                    lat double precision NOT NULL,
                    lon double precision NOT NULL,
                    published_at double precision NOT NULL,
                    location geography(Point, 4326) NOT NULL
                        GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography) STORED
                )
                """,
                "CREATE INDEX pet_location ON \(table) USING gist (location)",
                "CREATE INDEX pet_newest ON \(table) (published_at DESC, id)",
            ]),
            (2, "per-cell pet counts (0.05 degree cells) for exact counts without reading every pet", [
                """
                ALTER TABLE \(table)
                    ADD COLUMN cell_row integer NOT NULL
                        GENERATED ALWAYS AS (least(3599, greatest(0, floor((lat + 90) * 20)::integer))) STORED,
                    ADD COLUMN cell_col integer NOT NULL
                        GENERATED ALWAYS AS (least(7199, greatest(0, floor((lon + 180) * 20)::integer))) STORED
                """,
                "CREATE INDEX pet_cell_members ON \(table) (cell_row, cell_col)",
                """
                CREATE TABLE \"\(schema)\".pet_cell (
                    cell_row integer NOT NULL, cell_col integer NOT NULL, pets integer NOT NULL,
                    PRIMARY KEY (cell_row, cell_col))
                """,
                "INSERT INTO \"\(schema)\".pet_cell SELECT cell_row, cell_col, count(*) FROM \(table) GROUP BY cell_row, cell_col",
            ]),
            (3, "a maintained pet count and data version, so a listing never counts rows", [
                """
                CREATE TABLE \"\(schema)\".pet_stats (
                    singleton integer PRIMARY KEY CHECK (singleton = 1), pets bigint NOT NULL, version bigint NOT NULL)
                """,
                "INSERT INTO \"\(schema)\".pet_stats SELECT 1, count(*), 1 FROM \(table)",
            ]),
            // ETags are made of the version: a database created anew (a reset, a reseed) must not
            // repeat the versions, and so the tags, of the one it replaces.
            (4, "data versions start at a random number", [
                "UPDATE \"\(schema)\".pet_stats SET version = version + floor(random() * 281474976710656)::bigint",
            ]),
            (5, "the pet count, the per-cell counts and the data version kept by triggers", countTriggers(schema: schema, logging: false)),
            (6, "pets that left the listings", [
                "CREATE TABLE \"\(schema)\".pet_gone (id text COLLATE \"C\" PRIMARY KEY, status text NOT NULL)",
            ]),
            (7, "a log of every position change, so that API replicas keep a position index in memory", [
                // Rows get a number the index holds them by (an id may be any text).
                "ALTER TABLE \(table) ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY",
                "CREATE UNIQUE INDEX pet_seq ON \(table) (seq)",
                """
                CREATE TABLE \"\(schema)\".pet_log (
                    id bigserial PRIMARY KEY, version bigint NOT NULL, seq bigint NOT NULL, listed boolean NOT NULL,
                    lat double precision NOT NULL, lon double precision NOT NULL, published_at double precision,
                    species text, sex text, age_months integer)
                """,
                "CREATE INDEX pet_log_version ON \"\(schema)\".pet_log (version)",
                // The log starts now: an index of an older version rebuilds.
                "ALTER TABLE \"\(schema)\".pet_stats ADD COLUMN log_starts_after bigint NOT NULL DEFAULT 0",
                "UPDATE \"\(schema)\".pet_stats SET log_starts_after = version",
            ] + countTriggers(schema: schema, logging: true)),
            // A database restored from a dump goes back to an older version and its log's ids start
            // again; with steps of one, new writes could bring it to a (version, newest log id) that
            // a replica's index already holds with other positions, and the ETag of that version
            // would name two bodies. A random step of up to 2^24 makes landing on a given version a
            // one-in-ten-million chance. The trap in a larger step: bigint runs out (2^63 / 2^23 is
            // about 10^12 statements, 35 years at a thousand a second; 2^32 would last 50 days).
            (8, "data versions move by a random step, so that a restored database never meets an old version again",
             countTriggers(schema: schema, logging: true, step: "1 + floor(random() * 16777216)::bigint")),
            // PostGIS answers every nearby query and counts are capped: what kept an index in each
            // replica's memory goes. Dropping columns only marks them dropped; no row is rewritten.
            (9, "PostGIS answers nearby queries: the position log, the cell counts and the row numbers go", versionTriggers(schema: schema) + [
                "DROP TABLE \"\(schema)\".pet_log",
                "DROP TABLE \"\(schema)\".pet_cell",
                "ALTER TABLE \"\(schema)\".pet_stats DROP COLUMN log_starts_after",
                "ALTER TABLE \(table) DROP COLUMN cell_row, DROP COLUMN cell_col, DROP COLUMN seq",
                // Every listing's body changed with this release (counts are capped and say so): no
                // ETag of the old bodies may name a new one.
                "UPDATE \"\(schema)\".pet_stats SET version = version + 1",
            ]),
            // One point, one spelling, as GreatCircle measures (lon −180 is 180, a pole's longitude 0):
            // PostGIS measured (90, 0) and (90, 180) 2.5e-13 km apart, so pets at one point were
            // ordered by rounding, not by id. A generated column's expression cannot be altered
            // before PostgreSQL 17: the column and its index are made again (the table is rewritten
            // once). Distances may move in their last digit: the data version moves too.
            (10, "a point has one location whatever its longitude is written as", [
                "ALTER TABLE \(table) DROP COLUMN location",
                """
                ALTER TABLE \(table) ADD COLUMN location geography(Point, 4326) NOT NULL
                    GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(
                        CASE WHEN abs(lat) = 90 THEN 0 WHEN lon = -180 THEN 180 ELSE lon END, lat), 4326)::geography) STORED
                """,
                "CREATE INDEX pet_location ON \(table) USING gist (location)",
                "UPDATE \"\(schema)\".pet_stats SET version = version + 1",
            ]),
            // The gazetteer, as SQLite's migration v10 keeps it (SQLitePlaces.schema says why the
            // prefix table).
            (11, "places a person can choose instead of sharing their location", [
                """
                CREATE TABLE "\(schema)".place (
                    id text COLLATE "C" PRIMARY KEY, name text NOT NULL, region text, country text NOT NULL,
                    lat float8 NOT NULL, lon float8 NOT NULL, population bigint NOT NULL,
                    postal_code text COLLATE "C", label text NOT NULL, key text COLLATE "C" NOT NULL)
                """,
                "CREATE INDEX place_key ON \"\(schema)\".place (key) WHERE postal_code IS NULL",
                "CREATE INDEX place_postal_code ON \"\(schema)\".place (postal_code) WHERE postal_code IS NOT NULL",
                """
                CREATE TABLE "\(schema)".place_prefix (
                    prefix text COLLATE "C" NOT NULL, population bigint NOT NULL, id text COLLATE "C" NOT NULL)
                """,
                // In the order a suggestion list shows them (a primary key cannot be descending).
                "CREATE UNIQUE INDEX place_prefix_order ON \"\(schema)\".place_prefix (prefix, population DESC, id)",
            ]),
        ]
    }

    /// The trigger functions from migration 9 on: the pet count and the data version, one statement
    /// at a time, whoever writes (this binary, psql, another tool). They replace those of migrations
    /// 5, 7 and 8 under the same triggers. A statement that changes no row changes nothing.
    private static func versionTriggers(schema: String) -> [String] {
        let stats = "\"\(schema)\".pet_stats"
        func function(_ name: String, _ body: String) -> String {
            """
            CREATE OR REPLACE FUNCTION "\(schema)".\(name)() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                \(body)
                RETURN NULL;
            END
            $body$
            """
        }
        return [
            function("pet_inserted", "UPDATE \(stats) SET pets = pets + n, version = version + 1 FROM (SELECT count(*) AS n FROM added) AS a WHERE n > 0;"),
            function("pet_deleted", "UPDATE \(stats) SET pets = pets - n, version = version + 1 FROM (SELECT count(*) AS n FROM gone) AS g WHERE n > 0;"),
            function("pet_updated", "IF EXISTS (SELECT 1 FROM new_rows) THEN UPDATE \(stats) SET version = version + 1; END IF;"),
            function("pet_truncated", "UPDATE \(stats) SET pets = 0, version = version + 1;"),
        ]
    }

    /// Statement-level triggers (one update of the counts per statement, from its transition tables)
    /// that keep `pet_stats` and `pet_cell` true to the `pet` table whoever writes it: this binary,
    /// psql, another tool. (A release from before these triggers still adds to the counts itself: stop
    /// old writers before the first server of this one migrates.) A statement that changes no row
    /// changes nothing.
    ///
    /// Every function updates `pet_stats` first: its one row then orders concurrent writers, so two of
    /// them never hold cells the other waits for (a deadlock); cell rows are changed in key order.
    ///
    /// With `logging` (migration 7, which replaces the functions of migration 5) each statement also
    /// appends to `pet_log` the positions it removed and added, under the version it moved
    /// `pet_stats` to. The row lock on `pet_stats` is held to the end of the writer's transaction, so
    /// versions (and the log's ids, taken after the lock) commit in order: a reader whose snapshot
    /// shows version V sees every entry up to V and none after, which is what lets a replica catch up.
    /// `step` is what a write adds to the version (`1` for migrations 5 and 7, which never change).
    private static func countTriggers(schema: String, logging: Bool, step: String = "1") -> [String] {
        let table = "\"\(schema)\".pet"
        let cells = "\"\(schema)\".pet_cell"
        let stats = "\"\(schema)\".pet_stats"
        let log = "\"\(schema)\".pet_log"
        /// Adds `delta` (a query of cell_row, cell_col, n) to the cells, in key order; n may be negative.
        func change(_ delta: String) -> String {
            """
            INSERT INTO \(cells) (cell_row, cell_col, pets)
                SELECT cell_row, cell_col, n FROM (\(delta)) AS delta WHERE n <> 0 ORDER BY cell_row, cell_col
                ON CONFLICT (cell_row, cell_col) DO UPDATE SET pets = \(cells).pets + excluded.pets;
            """
        }
        /// The version update, which also keeps the new version in `moved` when logging.
        func bump(_ assignments: String) -> String {
            "UPDATE \(stats) SET \(assignments)\(logging ? " RETURNING version INTO moved" : "");"
        }
        /// Appends the rows of `rows` to the log, as listed (added) or not (removed), when logging.
        func logged(_ rows: String, listed: Bool) -> String {
            guard logging else { return "" }
            let fields = listed ? "true, lat, lon, published_at, species, sex, age_months" : "false, lat, lon, NULL, NULL, NULL, NULL"
            return """

                INSERT INTO \(log) (version, seq, listed, lat, lon, published_at, species, sex, age_months)
                    SELECT moved, seq, \(fields) FROM \(rows) ORDER BY seq;
                """
        }
        func function(_ name: String, guardedBy rows: String?, _ body: String) -> String {
            let checked = rows.map { "IF EXISTS (SELECT 1 FROM \($0)) THEN\n\(body)\nEND IF;" } ?? body
            return """
                CREATE \(logging ? "OR REPLACE " : "")FUNCTION "\(schema)".\(name)() RETURNS trigger LANGUAGE plpgsql AS $body$
                \(logging ? "DECLARE moved bigint;\n" : "")BEGIN
                    \(checked)
                    RETURN NULL;
                END
                $body$
                """
        }
        let functions = [
            function("pet_inserted", guardedBy: "added", """
                \(bump("pets = pets + (SELECT count(*) FROM added), version = version + \(step)"))
                \(change("SELECT cell_row, cell_col, count(*) AS n FROM added GROUP BY cell_row, cell_col"))\(logged("added", listed: true))
                """),
            function("pet_deleted", guardedBy: "gone", """
                \(bump("pets = pets - (SELECT count(*) FROM gone), version = version + \(step)"))
                \(change("SELECT cell_row, cell_col, -count(*) AS n FROM gone GROUP BY cell_row, cell_col"))\(logged("gone", listed: false))
                """),
            // One net change per cell: a rename changes no cell, a move two. The log removes every old
            // row before it adds the new ones.
            function("pet_updated", guardedBy: "new_rows", """
                \(bump("version = version + \(step)"))
                \(change("""
                    SELECT cell_row, cell_col, sum(n) AS n FROM (
                        SELECT cell_row, cell_col, -1 AS n FROM old_rows UNION ALL SELECT cell_row, cell_col, 1 FROM new_rows
                    ) AS moves GROUP BY cell_row, cell_col
                    """))\(logged("old_rows", listed: false))\(logged("new_rows", listed: true))
                """),
            // The log cannot say what a truncation removed: it starts again, and indexes rebuild.
            function("pet_truncated", guardedBy: nil, logging ? """
                \(step == "1"
                    ? "UPDATE \(stats) SET pets = 0, version = version + 1, log_starts_after = version + 1;"
                    // One draw: the log starts after the very version this truncation moved to.
                    : "UPDATE \(stats) SET pets = 0, version = version + \(step) RETURNING version INTO moved;\n"
                        + "UPDATE \(stats) SET log_starts_after = moved;")
                DELETE FROM \(cells);
                DELETE FROM \(log);
                """ : """
                UPDATE \(stats) SET pets = 0, version = version + 1;
                DELETE FROM \(cells);
                """),
        ]
        // Migration 7 replaces the functions; the triggers and the counts are those of migration 5.
        if logging { return functions }
        return [
            // No other replica writes while the counts are made true to the table and the triggers take over.
            "LOCK TABLE \(table) IN SHARE ROW EXCLUSIVE MODE",
            "UPDATE \(stats) SET pets = (SELECT count(*) FROM \(table))",
            "DELETE FROM \(cells)",
            "INSERT INTO \(cells) SELECT cell_row, cell_col, count(*) FROM \(table) GROUP BY cell_row, cell_col",
        ] + functions + [
            "CREATE TRIGGER pet_inserted AFTER INSERT ON \(table) REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION \"\(schema)\".pet_inserted()",
            "CREATE TRIGGER pet_deleted AFTER DELETE ON \(table) REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION \"\(schema)\".pet_deleted()",
            "CREATE TRIGGER pet_updated AFTER UPDATE ON \(table) REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION \"\(schema)\".pet_updated()",
            "CREATE TRIGGER pet_truncated AFTER TRUNCATE ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION \"\(schema)\".pet_truncated()",
        ]
    }

    /// An arbitrary constant shared by every PetSpot replica: the key of the migration lock.
    static let lockKey: Int64 = 0x5045_5453_504F_5431

    /// Checks the database and migrates it; on a standby (or a read-only database) waits, saying so on
    /// `progress`, until the primary's migrations have arrived, and migrates nothing.
    /// - Returns: whether the database is read-only.
    @discardableResult
    static func run(_ configuration: PostgresAnimalStore.Configuration, logger: Logger, progress: Logger) async throws -> Bool {
        let url = configuration.displayURL
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try configuration.connectionConfiguration(), id: 1, logger: logger
            )
        } catch {
            throw PostgresAnimalStoreError.connecting(error, url: url)
        }
        let readOnly: Bool
        do {
            readOnly = try await isReadOnly(connection, logger: logger)
            if readOnly, configuration.forWriting {
                throw PostgresAnimalStoreError.readOnly(url: url)
            } else if readOnly {
                try await waitUntilMigrated(on: connection, schema: configuration.schema, logger: logger, progress: progress)
            } else {
                try await enablePostGIS(on: connection, url: url, logger: logger)
                do {
                    try await PostgresAnimalStore.transaction(on: connection, logger: logger) {
                        try await migrate(on: connection, schema: configuration.schema, logger: logger)
                    }
                } catch let error as PostgresAnimalStoreError {
                    throw error
                } catch {
                    throw PostgresAnimalStoreError.migrationFailed(url: url, reason: PostgresAnimalStoreError.reason(error))
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        return readOnly
    }

    private static func enablePostGIS(on connection: PostgresConnection, url: String, logger: Logger) async throws {
        let installed = try await connection.query(
            "SELECT count(*) FROM pg_extension WHERE extname = 'postgis'", logger: logger
        ).collect().first?.decode(Int.self) ?? 0
        guard installed == 0 else { return }
        do {
            try await PostgresAnimalStore.transaction(on: connection, logger: logger) {
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query("CREATE EXTENSION IF NOT EXISTS postgis", logger: logger)
            }
        } catch {
            throw PostgresAnimalStoreError.postGISMissing(url: url, reason: PostgresAnimalStoreError.reason(error))
        }
    }

    /// A hot-standby read replica (or a database whose sessions are read-only) cannot be migrated; API
    /// replicas that only read may still use it once the primary is migrated.
    private static func isReadOnly(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'", logger: logger
        ).collect()
        return try rows.first?.decode(Bool.self) ?? false
    }

    /// How often a standby's schema is looked at while it waits for the primary's migrations.
    static let schemaPollInterval = Duration.seconds(1)

    /// Returns once the standby has replayed the newest migration; says what it waits for at once,
    /// then every minute. Ends on cancellation (a server stopped while it waits).
    private static func waitUntilMigrated(on connection: PostgresConnection, schema: String, logger: Logger, progress: Logger) async throws {
        let latest = steps(schema: schema).map(\.version).max() ?? 0
        let history = "\"\(schema)\".petspot_migration"
        let clock = ContinuousClock()
        var nextNotice = clock.now
        while true {
            // Two statements: one naming a table that does not exist yet would fail as it is planned.
            let exists = try await connection.query("SELECT to_regclass(\(history)) IS NOT NULL", logger: logger)
                .collect().first?.decode(Bool.self) ?? false
            let applied = exists
                ? try await connection.query("SELECT coalesce(max(version), 0) FROM \(unescaped: history)", logger: logger)
                    .collect().first?.decode(Int.self) ?? 0
                : 0
            if applied >= latest { return }
            if clock.now >= nextNotice {
                progress.notice("read-only database (a standby?): waiting for the primary to migrate the pets schema", metadata: [
                    "schema": "\(schema)", "version": "\(applied)", "needed": "\(latest)",
                ])
                nextNotice = clock.now.advanced(by: .seconds(60))
            }
            try await Task.sleep(for: schemaPollInterval)
        }
    }

    private static func migrate(on connection: PostgresConnection, schema: String, logger: Logger) async throws {
        // A step may rewrite a large table (migration 7 does): the store's statement timeout, meant for
        // requests, does not bound it.
        try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
        try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await connection.query(#"CREATE SCHEMA IF NOT EXISTS "\#(unescaped: schema)""#, logger: logger)
        let history = "\"\(schema)\".petspot_migration"
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS \(unescaped: history) (
                version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var applied = Set<Int>()
        for try await version in try await connection.query("SELECT version FROM \(unescaped: history)", logger: logger).decode(Int.self) {
            applied.insert(version)
        }
        for step in steps(schema: schema) where !applied.contains(step.version) {
            for statement in step.sql {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO \(unescaped: history) (version, name) VALUES (\(step.version), \(step.name))", logger: logger
            )
            logger.notice("migrated the pets database", metadata: ["version": "\(step.version)", "step": "\(step.name)"])
        }
    }
}
