# shellcheck shell=bash
# Throwaway MariaDB and Redis for tests, on loopback, in a temp dir, without systemd.
#
#   source .ci/services.sh && start_services
#   DATABASE_URL=$CI_DATABASE_URL REDIS_URL=$CI_REDIS_URL npm test
#   stop_services
#
# Sourcing only defines functions and defaults: it changes no shell option of yours.
# Override before start_services if a port is taken:
#   CI_MARIADB_PORT (3307), CI_REDIS_PORT (6380), CI_DB_NAME (shop_test),
#   CI_DB_USER (shop), CI_DB_PASSWORD (shop-ci-password), CI_SERVICES_DIR (a new mktemp dir).
# The user gets ALL PRIVILEGES ON *.* because tests create and drop a database per test file.
# Everything listens on 127.0.0.1 only; stop_services stops both servers and deletes the
# mktemp dir (a CI_SERVICES_DIR you chose yourself is left in place).

: "${CI_MARIADB_PORT:=3307}"
: "${CI_REDIS_PORT:=6380}"
: "${CI_DB_NAME:=shop_test}"
: "${CI_DB_USER:=shop}"
: "${CI_DB_PASSWORD:=shop-ci-password}"

_ci_log() { printf '[services] %s\n' "$*" >&2; }

# True when something accepts TCP connections on 127.0.0.1:$1 (bash's /dev/tcp: no extra tools).
_ci_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

_ci_pid_alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

_ci_mariadb_root() {
  mariadb --no-defaults --socket="$CI_SERVICES_DIR/mysqld.sock" -uroot "$@"
}

start_services() {
  local cmd missing=()
  for cmd in mariadb-install-db mariadbd mariadb mariadb-admin redis-server redis-cli; do
    command -v "$cmd" >/dev/null 2>&1 || missing+=("$cmd")
  done
  if ((${#missing[@]})); then
    _ci_log "missing commands: ${missing[*]} (apt-get install -y mariadb-server redis-server)"
    return 1
  fi
  if [[ -n "${CI_SERVICES_STARTED:-}" ]]; then
    _ci_log "already started in $CI_SERVICES_DIR (run stop_services first)"
    return 1
  fi
  local port
  for port in "$CI_MARIADB_PORT" "$CI_REDIS_PORT"; do
    if _ci_port_open "$port"; then
      _ci_log "port $port on 127.0.0.1 is already in use; set CI_MARIADB_PORT / CI_REDIS_PORT to free ones"
      return 1
    fi
  done

  if [[ -z "${CI_SERVICES_DIR:-}" ]]; then
    # In memory when the machine has /dev/shm: the tests' databases are thrown away, and every
    # table a test shop creates would otherwise be a file written and synced to disk.
    local parent="${TMPDIR:-/tmp}"
    [[ -d /dev/shm && -w /dev/shm ]] && parent=/dev/shm
    CI_SERVICES_DIR=$(mktemp -d "$parent/shop-services.XXXXXX") || return 1
  fi
  mkdir -p "$CI_SERVICES_DIR" || return 1
  CI_SERVICES_DIR=$(cd "$CI_SERVICES_DIR" && pwd -P) # mariadbd needs absolute paths
  export CI_SERVICES_DIR
  CI_SERVICES_STARTED=1

  # mariadbd refuses to run as root unless told to; as anyone else it runs as that user.
  local user_opt=()
  [[ "$(id -u)" == 0 ]] && user_opt=(--user=root)
  local dir=$CI_SERVICES_DIR i

  # --- MariaDB ---------------------------------------------------------------
  _ci_log "MariaDB: initialising $dir/mariadb"
  if ! mariadb-install-db --no-defaults "${user_opt[@]}" --datadir="$dir/mariadb" \
      --auth-root-authentication-method=normal --skip-test-db >"$dir/mariadb-install.log" 2>&1; then
    _ci_log "mariadb-install-db failed:"; cat "$dir/mariadb-install.log" >&2
    return 1
  fi
  _ci_log "MariaDB: starting on 127.0.0.1:$CI_MARIADB_PORT"
  # The braces' 2>/dev/null and disown keep an interactive shell from printing job notices.
  { mariadbd --no-defaults "${user_opt[@]}" --datadir="$dir/mariadb" \
      --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" \
      --port="$CI_MARIADB_PORT" --bind-address=127.0.0.1 --skip-name-resolve \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
      --innodb-buffer-pool-size=64M --innodb-flush-log-at-trx-commit=0 \
      --innodb-flush-method=fsync --innodb-doublewrite=0 \
      --log-error="$dir/mariadb-error.log" </dev/null >"$dir/mariadbd.out" 2>&1 & } 2>/dev/null
  CI_MARIADB_PID=$!
  disown "$CI_MARIADB_PID" 2>/dev/null
  for ((i = 0; i < 300; i++)); do # up to 30 s
    mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot ping >/dev/null 2>&1 && break
    _ci_pid_alive "$CI_MARIADB_PID" || break
    sleep 0.1
  done
  if ! mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot ping >/dev/null 2>&1; then
    _ci_log "MariaDB did not become ready; its log:"
    tail -n 40 "$dir/mariadb-error.log" "$dir/mariadbd.out" >&2 2>/dev/null
    return 1
  fi
  [[ -s "$dir/mysqld.pid" ]] && CI_MARIADB_PID=$(<"$dir/mysqld.pid")

  local u sql="CREATE DATABASE IF NOT EXISTS \`$CI_DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;"
  for u in "'$CI_DB_USER'@'127.0.0.1'" "'$CI_DB_USER'@'localhost'"; do
    sql+="CREATE USER IF NOT EXISTS $u IDENTIFIED BY '$CI_DB_PASSWORD';"
    sql+="GRANT ALL PRIVILEGES ON *.* TO $u;"
  done
  sql+="FLUSH PRIVILEGES;"
  if ! _ci_mariadb_root -e "$sql"; then
    _ci_log "could not create the database and user"
    return 1
  fi
  if ! mariadb --no-defaults --protocol=TCP -h127.0.0.1 -P"$CI_MARIADB_PORT" -u"$CI_DB_USER" -p"$CI_DB_PASSWORD" \
      "$CI_DB_NAME" -e 'SELECT 1' >/dev/null; then
    _ci_log "MariaDB: cannot log in as $CI_DB_USER over TCP"
    return 1
  fi
  _ci_log "MariaDB: ready ($(_ci_mariadb_root -N -e 'SELECT VERSION()'))"

  # --- Redis -----------------------------------------------------------------
  _ci_log "Redis: starting on 127.0.0.1:$CI_REDIS_PORT"
  mkdir -p "$dir/redis"
  if ! redis-server --bind 127.0.0.1 --port "$CI_REDIS_PORT" --save '' --appendonly no \
      --dir "$dir/redis" --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"; then
    _ci_log "redis-server failed to start"
    return 1
  fi
  for ((i = 0; i < 100; i++)); do # up to 10 s
    [[ "$(redis-cli -h 127.0.0.1 -p "$CI_REDIS_PORT" ping 2>/dev/null)" == PONG ]] && break
    sleep 0.1
  done
  if [[ "$(redis-cli -h 127.0.0.1 -p "$CI_REDIS_PORT" ping 2>/dev/null)" != PONG ]]; then
    _ci_log "Redis did not become ready; its log:"
    tail -n 40 "$dir/redis.log" >&2 2>/dev/null
    return 1
  fi
  _ci_log "Redis: ready ($(redis-cli -h 127.0.0.1 -p "$CI_REDIS_PORT" info server | tr -d '\r' | sed -n 's/^redis_version://p'))"

  export CI_DATABASE_URL="mysql://$CI_DB_USER:$CI_DB_PASSWORD@127.0.0.1:$CI_MARIADB_PORT/$CI_DB_NAME"
  export CI_REDIS_URL="redis://127.0.0.1:$CI_REDIS_PORT"
  _ci_log "CI_DATABASE_URL=$CI_DATABASE_URL"
  _ci_log "CI_REDIS_URL=$CI_REDIS_URL"
}

# Waits up to $2 tenths of a second for pid $1 to exit; true once it has.
_ci_wait_gone() {
  local pid=$1 tries=${2:-300}
  while ((tries-- > 0)); do
    _ci_pid_alive "$pid" || return 0
    sleep 0.1
  done
  ! _ci_pid_alive "$pid"
}

# Safe to call more than once and after a failed start_services.
stop_services() {
  [[ -n "${CI_SERVICES_STARTED:-}" ]] || return 0
  local dir=${CI_SERVICES_DIR:-} pid

  if [[ -n "$dir" && -s "$dir/redis.pid" ]]; then
    pid=$(<"$dir/redis.pid")
    if _ci_pid_alive "$pid"; then
      _ci_log "Redis: stopping (pid $pid)"
      redis-cli -h 127.0.0.1 -p "$CI_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || kill "$pid" 2>/dev/null
      _ci_wait_gone "$pid" 100 || kill -KILL "$pid" 2>/dev/null
    fi
  fi

  pid=${CI_MARIADB_PID:-}
  [[ -n "$dir" && -s "$dir/mysqld.pid" ]] && pid=$(<"$dir/mysqld.pid")
  if _ci_pid_alive "$pid"; then
    _ci_log "MariaDB: stopping (pid $pid)"
    kill -TERM "$pid" 2>/dev/null
    _ci_wait_gone "$pid" 300 || { _ci_log "MariaDB: still running after 30 s, killing"; kill -KILL "$pid" 2>/dev/null; }
  fi

  if [[ -n "$dir" && -d "$dir" && "$dir" == */shop-services.* ]]; then
    rm -rf -- "$dir"
  fi
  unset CI_SERVICES_STARTED CI_SERVICES_DIR CI_MARIADB_PID CI_DATABASE_URL CI_REDIS_URL
  return 0
}
