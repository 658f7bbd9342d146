#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests, on a free loopback port.
#
#   eval "$(scripts/postgres.sh start)"   # installs PostgreSQL if missing, starts a cluster,
#                                          # prints `export HRAJ_TEST_POSTGRES_URL=... HRAJ_TEST_POSTGRES_DIR=...`
#   scripts/postgres.sh stop               # stops the cluster in $HRAJ_TEST_POSTGRES_DIR and removes it
#   scripts/postgres.sh pause|resume       # stops the cluster at once (as a crash would) / starts it again
#                                          # on the same port, keeping its data (the outage tests)
#
# Everything it says goes to stderr except the export line, so `eval` sees only that.
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

find_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/initdb" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

as_postgres() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    local bin dir port
    if ! bin=$(find_bin); then
        log "installing PostgreSQL"
        if [ "$(id -u)" = 0 ]; then
            (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
        else
            (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
        fi
        bin=$(find_bin)
    fi
    dir=$(mktemp -d /tmp/hraj-postgres.XXXXXX)
    chmod 755 "$dir"
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$dir"
    fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    echo "$port" >"$dir/port"
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres hraj_test
    log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
    echo "export HRAJ_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:$port/hraj_test HRAJ_TEST_POSTGRES_DIR=$dir"
}

stop() {
    local bin dir=${HRAJ_TEST_POSTGRES_DIR:-}
    if [ -z "$dir" ] || [ ! -d "$dir/data" ]; then
        return 0
    fi
    bin=$(find_bin)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
}

pause() {
    local bin dir=${HRAJ_TEST_POSTGRES_DIR:?HRAJ_TEST_POSTGRES_DIR is not set}
    bin=$(find_bin)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
}

resume() {
    local bin dir=${HRAJ_TEST_POSTGRES_DIR:?HRAJ_TEST_POSTGRES_DIR is not set}
    bin=$(find_bin)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
        -o "-p $(cat "$dir/port") -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    pause) pause ;;
    resume) resume ;;
    *)
        echo "usage: $0 start|stop|pause|resume" >&2
        exit 2
        ;;
esac
