#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL + PostGIS cluster:
#
#     scripts/with-postgres.sh swift test
#     scripts/with-postgres.sh --standby swift test
#
# Creates a cluster with initdb in a temporary directory, starts it on a free port on 127.0.0.1 only
# (its unix socket stays inside that directory), creates the database `petspot` with PostGIS, exports
# PETSPOT_POSTGRES_URL=postgres://petspot:<random password>@127.0.0.1:<port>/petspot, runs the command,
# then stops the cluster and deletes the directory, also when the command fails or is interrupted.
# Exits with the command's status. PETSPOT_POSTGRES_RESTART names a script that restarts the cluster
# (for fault drills; see below).
#
# With --standby it also starts a streaming hot standby of that cluster, made with
# `pg_basebackup -R` (PostgreSQL's own replication: the standby replays the primary's WAL and answers
# read-only queries; with hot_standby_feedback, so that the primary's cleanup never cancels them), on
# another free port, and exports PETSPOT_POSTGRES_STANDBY_URL and
# PETSPOT_POSTGRES_STANDBY_RESTART (the same restart script, for the standby). The primary lists every
# standby in synchronous_standby_names, so a transaction that sets `synchronous_commit = remote_apply`
# commits only once the standby has applied it (tests use this to wait for replay); every other
# commit waits for nothing, as without --standby. PETSPOT_POSTGRES_SETTINGS adds server settings, for instance
# "-c shared_buffers=2GB -c random_page_cost=1.1" for a benchmark.
#
# Installs nothing. Needs PostgreSQL's server binaries and PostGIS (Debian: postgresql-15 and
# postgresql-15-postgis-3). PG_BINDIR picks the binaries; otherwise the newest
# /usr/lib/postgresql/*/bin is used. PostgreSQL refuses to run as root: as root, the cluster runs as
# the `postgres` user (or PG_USER).
set -uo pipefail

fail() { echo "with-postgres: $*" >&2; exit 2; }

standby=0
if [[ "${1:-}" == "--standby" ]]; then standby=1; shift; fi
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
(($# > 0)) || fail "usage: $0 [--standby] COMMAND [ARGUMENT...]"

bindir="${PG_BINDIR:-}"
if [[ -z "$bindir" ]]; then
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [[ -x "$candidate/initdb" ]]; then bindir="$candidate"; break; fi
    done
fi
[[ -n "$bindir" ]] || fail "PostgreSQL server binaries not found (install postgresql-15, or set PG_BINDIR)"
for binary in initdb pg_ctl psql pg_config pg_basebackup; do
    [[ -x "$bindir/$binary" ]] || fail "$bindir/$binary is missing (install postgresql-15)"
done
sharedir="$("$bindir/pg_config" --sharedir)"
[[ -f "$sharedir/extension/postgis.control" ]] \
    || fail "PostGIS is not installed for $("$bindir/pg_config" --version) (install postgresql-15-postgis-3)"

# PostgreSQL will not run as root.
as_owner=()
if [[ "$(id -u)" == 0 ]]; then
    owner="${PG_USER:-postgres}"
    id -u "$owner" >/dev/null 2>&1 || fail "running as root needs the user '$owner' to own the cluster (set PG_USER)"
    as_owner=(runuser -u "$owner" --)
fi

workdir="$(mktemp -d "${TMPDIR:-/tmp}/petspot-postgres.XXXXXX")" || fail "cannot create a temporary directory"
cluster_started=0
standby_started=0
cleanup() {
    if ((standby_started)); then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$workdir/standby" -m immediate -w stop >/dev/null 2>&1
    fi
    if ((cluster_started)); then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$workdir/data" -m fast -w stop >/dev/null 2>&1 \
            || "${as_owner[@]}" "$bindir/pg_ctl" -D "$workdir/data" -m immediate -w stop >/dev/null 2>&1
    fi
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$workdir/socket"
chmod 700 "$workdir" "$workdir/socket"
if ((${#as_owner[@]})); then chown -R "$owner" "$workdir"; fi

password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$password" > "$workdir/password"
chmod 600 "$workdir/password"
if ((${#as_owner[@]})); then chown "$owner" "$workdir/password"; fi

# Unix-socket connections (inside the private directory) are trusted; TCP needs the password.
"${as_owner[@]}" "$bindir/initdb" -D "$workdir/data" -U petspot --pwfile="$workdir/password" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 \
    >"$workdir/initdb.log" 2>&1 || { cat "$workdir/initdb.log" >&2; fail "initdb failed"; }
rm -f "$workdir/password"

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

sync_setting=""
if ((standby)); then sync_setting="-c synchronous_standby_names=*"; fi

# start_on_free_port NAME DATADIR SOCKETDIR SETTINGS: starts the cluster in DATADIR on a free port of
# 127.0.0.1 (trying again when another process took the port first); sets started_port and
# started_options (what its restart script starts it with again). Its log is $workdir/NAME.log.
start_on_free_port() {
    local name="$1" datadir="$2" socketdir="$3" settings="$4" candidate
    started_port=""
    for _ in $(seq 1 20); do
        candidate=$((20000 + RANDOM % 40000))
        [[ "$candidate" == "${port:-}" ]] && continue
        port_in_use "$candidate" && continue
        started_options="-c listen_addresses=127.0.0.1 -c port=$candidate -c unix_socket_directories=$socketdir $settings ${PETSPOT_POSTGRES_SETTINGS:-}"
        if "${as_owner[@]}" "$bindir/pg_ctl" -D "$datadir" -l "$workdir/$name.log" -w -t 60 start -o "$started_options" \
            >/dev/null 2>&1; then
            started_port="$candidate"
            return 0
        fi
        grep -q "could not bind" "$workdir/$name.log" 2>/dev/null \
            || { cat "$workdir/$name.log" >&2 2>/dev/null; fail "the PostgreSQL $name did not start"; }
    done
    return 0
}

# A throwaway cluster: durability settings off for speed. The tests open dozens of stores at once,
# each with a pool of its own: at the default 100 connections the last slots, kept for
# superusers, refused the role a test had just made ("remaining connection slots are reserved").
port=""
start_on_free_port server "$workdir/data" "$workdir/socket" \
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 $sync_setting"
port="$started_port" options="$started_options"
[[ -n "$port" ]] && cluster_started=1
[[ -n "$port" ]] || fail "no free port found for PostgreSQL"

"${as_owner[@]}" "$bindir/psql" -h "$workdir/socket" -p "$port" -U petspot -d postgres -v ON_ERROR_STOP=1 -q \
    -c "CREATE DATABASE petspot" >/dev/null || fail "cannot create the database"
"${as_owner[@]}" "$bindir/psql" -h "$workdir/socket" -p "$port" -U petspot -d petspot -v ON_ERROR_STOP=1 -q \
    -c "CREATE EXTENSION postgis" >/dev/null || fail "cannot create the PostGIS extension"

export PETSPOT_POSTGRES_URL="postgres://petspot:$password@127.0.0.1:$port/petspot"
# For fault drills (scripts/faults.sh): `"$PETSPOT_POSTGRES_RESTART" SECONDS [MODE]` stops the cluster
# (pg_ctl's MODE: fast, the default, or immediate, as a crash would; this cluster commits without
# waiting for its log, so a crash may lose the last half second), keeps it down SECONDS and starts it
# again on the same port.
cat > "$workdir/restart" <<RESTART
#!/usr/bin/env bash
set -eu
${as_owner[*]} "$bindir/pg_ctl" -D "$workdir/data" -m "\${2:-fast}" -w stop >/dev/null
sleep "\${1:-0}"
${as_owner[*]} "$bindir/pg_ctl" -D "$workdir/data" -l "$workdir/server.log" -w -t 60 start -o "$options" >/dev/null
RESTART
chmod 755 "$workdir/restart"
export PETSPOT_POSTGRES_RESTART="$workdir/restart"
echo "with-postgres: PostgreSQL $("$bindir/pg_config" --version | awk '{print $2}') with PostGIS on 127.0.0.1:$port (throwaway)" >&2

if ((standby)); then
    # A base backup of the running primary over the replication protocol; -R writes standby.signal and
    # the primary_conninfo (with this password) the standby streams from; -C -S makes a replication
    # slot, so that the primary keeps every WAL segment the standby has not received, also while it
    # restarts.
    "${as_owner[@]}" env PGPASSWORD="$password" "$bindir/pg_basebackup" -h 127.0.0.1 -p "$port" -U petspot \
        -D "$workdir/standby" -R -X stream -C -S petspot_standby --checkpoint=fast >"$workdir/basebackup.log" 2>&1 \
        || { cat "$workdir/basebackup.log" >&2; fail "pg_basebackup failed"; }
    mkdir -p "$workdir/socket-standby"
    if ((${#as_owner[@]})); then chown -R "$owner" "$workdir/socket-standby"; fi
    start_on_free_port standby "$workdir/standby" "$workdir/socket-standby" \
        "-c fsync=off -c full_page_writes=off -c max_connections=300 -c hot_standby=on -c hot_standby_feedback=on"
    standby_port="$started_port" standby_options="$started_options"
    [[ -n "$standby_port" ]] && standby_started=1
    [[ -n "$standby_port" ]] || fail "no free port found for the standby"
    export PETSPOT_POSTGRES_STANDBY_URL="postgres://petspot:$password@127.0.0.1:$standby_port/petspot"
    cat > "$workdir/restart-standby" <<RESTART
#!/usr/bin/env bash
set -eu
${as_owner[*]} "$bindir/pg_ctl" -D "$workdir/standby" -m "\${2:-fast}" -w stop >/dev/null
sleep "\${1:-0}"
${as_owner[*]} "$bindir/pg_ctl" -D "$workdir/standby" -l "$workdir/standby.log" -w -t 60 start -o "$standby_options" >/dev/null
RESTART
    chmod 755 "$workdir/restart-standby"
    export PETSPOT_POSTGRES_STANDBY_RESTART="$workdir/restart-standby"
    echo "with-postgres: streaming hot standby on 127.0.0.1:$standby_port (pg_basebackup -R)" >&2
fi

"$@"
status=$?
exit "$status"
