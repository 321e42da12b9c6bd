#!/bin/sh
# zfsplanner collect.sh: send a ZFS pool's own outputs to zfsplanner in one request, and, when
# asked, run a CrystalDiskMark-like fio benchmark and send its results.
#
#   curl -fsSO https://planner.example/collect.sh
#   sha256sum collect.sh                     # the planner's page and /collect.sh.sha256 show the same
#   sh collect.sh --server https://planner.example --dry-run     # what it would run and send; sends nothing
#   sh collect.sh --server https://planner.example --token-file ~/.zfsplanner-token
#
# The token is read from the environment (ZFSPLANNER_TOKEN) or from a file only you can read
# (--token-file), and is never passed to another command as an argument. Disk serial numbers and the
# host's name are replaced by stand-ins before anything is sent, unless --include-serials is given.
# Reads only: zpool status, zpool list, zpool get (the pool's and, on 2.2+, each vdev's properties),
# zfs get, zfs version, lsblk. Changes nothing on the pool. With --benchmark DIR it writes one test file in DIR (removed whatever happens).
# Exit status: 0 done; 2 bad usage, a missing tool, an unreachable server, a refused token, no
# pool or too little free space; 1 the server could not read what was sent, or fio failed; 128 + the
# signal's number when interrupted (130 Ctrl-C, 143 TERM, 129 HUP), also when fio was killed by one.
# POSIX sh: runs under dash, busybox ash, bash and FreeBSD sh.

# Run as `curl ... | sh -s -- ...`, the shell reads this script from a pipe: everything is in main(),
# parsed in full before anything runs, and no command it runs can read (and eat) the rest of it.
main() {
COLLECT_VERSION="1.1.1"

LC_ALL=C
export LC_ALL

usage() {
    cat <<'EOF'
Usage: collect.sh --server URL [--token-file PATH] [options]

Send a ZFS pool's outputs to zfsplanner (one import per pool) and print the link of
its preview ("model vs your pool"). Nothing on the pool is changed.

  --server URL        the zfsplanner address, e.g. https://planner.example
  --token-file PATH   read the upload-only token (from the "Collect from a server"
                      page) from PATH, a file no other user may read (chmod 600);
                      or set the environment variable ZFSPLANNER_TOKEN
  --token TOKEN       also accepted, but other users see it in ps and it stays in
                      the shell's history: prefer the two above
  --include-serials   send disk serial numbers and the host's name as they are
                      (by default each serial and the host name are replaced by a
                      stand-in of the same length, the same in every output)
  --pool NAME         this pool only (default: every imported pool, one import each)
  --design ID         attach the import (and the benchmark run) to design ID
  --benchmark DIR     also run the CrystalDiskMark-like fio job set on one test file
                      in DIR and upload the results (needs fio; the file is removed
                      afterwards, also on Ctrl-C)
  --size SIZE         size of the test file (default 1G; K, M, G, T are powers of 1024)
  --runtime SECONDS   seconds per fio job (default 10; 8 jobs)
  --repeat N          run the job set N times (default 1), each uploaded as its own run:
                      the planner groups them as repeats and shows each figure's spread
  --dry-run           print the commands it runs and exactly what would be sent;
                      send nothing, run no benchmark (no token needed)
  --help              this text
  --version           the script's version

Exit status: 0 done; 2 bad usage, a missing tool, an unreachable server, a refused
token, no pool, or less free space in DIR than twice SIZE; 1 the server could not
read what was sent, or fio failed; 128 + the signal's number when interrupted (130
for Ctrl-C, also when fio alone was killed by it): the test file is removed.
EOF
}

die() {
    printf 'collect.sh: %s\n' "$*" >&2
    exit 2
}

fail() {
    printf 'collect.sh: %s\n' "$*" >&2
    exit 1
}

say() {
    printf '%s\n' "$*" >&2
}

# ------------------------------------------------------------------ options

SERVER=""
TOKEN="${ZFSPLANNER_TOKEN:-}"
TOKEN_FILE=""
TOKEN_ARG=0
INCLUDE_IDS=0
POOL=""
DESIGN=""
BENCH_DIR=""
SIZE="1G"
RUNTIME="10"
REPEAT="1"
DRY_RUN=0

need_value() {
    [ "$2" -ge 2 ] || die "$1 needs a value (see --help)"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --server) need_value "$1" $#; SERVER=$2; shift 2 ;;
        --server=*) SERVER=${1#*=}; shift ;;
        --token) need_value "$1" $#; TOKEN=$2; TOKEN_ARG=1; shift 2 ;;
        --token=*) TOKEN=${1#*=}; TOKEN_ARG=1; shift ;;
        --token-file) need_value "$1" $#; TOKEN_FILE=$2; shift 2 ;;
        --token-file=*) TOKEN_FILE=${1#*=}; shift ;;
        --include-serials) INCLUDE_IDS=1; shift ;;
        --pool) need_value "$1" $#; POOL=$2; shift 2 ;;
        --pool=*) POOL=${1#*=}; shift ;;
        --design) need_value "$1" $#; DESIGN=$2; shift 2 ;;
        --design=*) DESIGN=${1#*=}; shift ;;
        --benchmark) need_value "$1" $#; BENCH_DIR=$2; shift 2 ;;
        --benchmark=*) BENCH_DIR=${1#*=}; shift ;;
        --size) need_value "$1" $#; SIZE=$2; shift 2 ;;
        --size=*) SIZE=${1#*=}; shift ;;
        --runtime) need_value "$1" $#; RUNTIME=$2; shift 2 ;;
        --runtime=*) RUNTIME=${1#*=}; shift ;;
        --repeat) need_value "$1" $#; REPEAT=$2; shift 2 ;;
        --repeat=*) REPEAT=${1#*=}; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --help|-h) usage; exit 0 ;;
        --version) printf 'collect.sh %s\n' "$COLLECT_VERSION"; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

is_count() {
    case "$1" in
        ''|*[!0-9]*) return 1 ;;
    esac
    [ "$1" -gt 0 ]
}

# SIZE in bytes: 1G, 64M, 512K, 2T, 1GiB, 1048576 (K/M/G/T are powers of 1024, as fio reads them).
size_bytes() {
    num=$(printf '%s' "$1" | sed -n 's/^\([0-9][0-9]*\)\([KkMmGgTt]\{0,1\}\)\(i\{0,1\}[Bb]\{0,1\}\)$/\1/p')
    unit=$(printf '%s' "$1" | sed -n 's/^\([0-9][0-9]*\)\([KkMmGgTt]\{0,1\}\)\(i\{0,1\}[Bb]\{0,1\}\)$/\2/p')
    [ -n "$num" ] || return 1
    case "$unit" in
        ''|[Bb]) mult=1 ;;
        [Kk]) mult=1024 ;;
        [Mm]) mult=1048576 ;;
        [Gg]) mult=1073741824 ;;
        [Tt]) mult=1099511627776 ;;
    esac
    printf '%s\n' "$((num * mult))"
}

SERVER=${SERVER%/}
case "$SERVER" in
    ''|http://*|https://*) ;;
    *) die "--server must start with http:// or https:// (got '$SERVER')" ;;
esac
if [ -n "$DESIGN" ] && ! is_count "$DESIGN"; then
    die "--design takes a design id, a number (got '$DESIGN')"
fi
is_count "$RUNTIME" || die "--runtime takes whole seconds, more than 0 (got '$RUNTIME')"
is_count "$REPEAT" || die "--repeat takes how many times to run the job set, 1 or more (got '$REPEAT')"
SIZE_BYTES=$(size_bytes "$SIZE") || die "--size takes a size such as 1G, 64M or 1073741824 (got '$SIZE')"
[ "$SIZE_BYTES" -ge 1048576 ] || die "--size must be at least 1M (got '$SIZE')"
# The token file: a regular file that only its owner may read or write (ls -l shows -rw------- or -r--------).
if [ -n "$TOKEN_FILE" ]; then
    [ -f "$TOKEN_FILE" ] || die "--token-file $TOKEN_FILE: no such file"
    [ -r "$TOKEN_FILE" ] || die "--token-file $TOKEN_FILE: not readable by $(id -un 2>/dev/null || echo this user)"
    # shellcheck disable=SC2012  # one named file; ls is the portable way to read its mode
    mode=$(ls -ld -- "$TOKEN_FILE" 2>/dev/null | cut -c1-10)
    case "$mode" in
        -r[w-]-------) ;;
        *) die "--token-file $TOKEN_FILE: other users may read or change it ($mode): chmod 600 $TOKEN_FILE" ;;
    esac
    TOKEN=$(tr -d ' \t\r\n' <"$TOKEN_FILE")
    [ -n "$TOKEN" ] || die "--token-file $TOKEN_FILE is empty"
fi
case "$TOKEN" in
    *[!A-Za-z0-9_-]*) die "the token holds characters no token has (copy it again from the planner's page)" ;;
esac
if [ "$DRY_RUN" -eq 0 ]; then
    [ -n "$SERVER" ] || die "give the planner's address: --server https://planner.example (see --help)"
    [ -n "$TOKEN" ] || die "give a token: --token-file PATH or ZFSPLANNER_TOKEN (the planner's \"Collect from a server\" page makes one)"
fi
if [ "$TOKEN_ARG" -eq 1 ]; then
    say "note: a token given with --token is shown to other users by ps and kept in the shell's history; use --token-file PATH or ZFSPLANNER_TOKEN"
fi

# ------------------------------------------------------------------ tools

have() {
    command -v "$1" >/dev/null 2>&1
}

have zpool || die "zpool not found: run this on the ZFS host (as root or a user allowed to run zpool)"
have zfs || die "zfs not found: run this on the ZFS host"
HTTP=""
if have curl; then
    HTTP=curl
elif have wget; then
    HTTP=wget
elif [ "$DRY_RUN" -eq 0 ]; then
    die "neither curl nor wget found: install one of them to send the outputs"
fi
if [ -n "$BENCH_DIR" ] && [ "$DRY_RUN" -eq 0 ]; then
    have fio || die "fio not found: install it (apt install fio, dnf install fio, pkg install fio) or leave out --benchmark"
fi

WORK=$(mktemp -d 2>/dev/null || mktemp -d -t zfsplanner-collect) || die "cannot create a temporary directory"
TEST_FILE=""
# shellcheck disable=SC2317  # called by the traps
cleanup() {
    if [ -n "$TEST_FILE" ]; then
        rm -f "$TEST_FILE"
    fi
    rm -rf "$WORK"
}
# Interrupted: the test file and the work directory removed, nothing more sent, and the exit status a
# shell gives for the signal (128 + its number). Reached from the traps, or from fio's exit status when
# fio was killed by a signal: Ctrl-C reaches both at once and which of the two this shell sees first is
# the kernel's choice; a signal ignored when the script started (nohup, a background job) never runs
# the trap at all.
# shellcheck disable=SC2317  # called by the traps
interrupted() {
    cleanup
    trap - EXIT INT TERM HUP
    exit "$1"
}
trap cleanup EXIT
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
trap 'interrupted 129' HUP

# ------------------------------------------------------------------ pools

if [ -n "$POOL" ]; then
    zpool list -H -o name "$POOL" >/dev/null 2>&1 || die "no imported pool named '$POOL' (zpool list shows: $(zpool list -H -o name 2>/dev/null | tr '\n' ' '))"
    POOLS=$POOL
else
    POOLS=$(zpool list -H -o name 2>/dev/null)
    [ -n "$POOLS" ] || die "no pool: zpool list shows no imported pool on this host"
fi

# ------------------------------------------------------------------ benchmark checks (before anything is sent)

json_str() {
    printf '%s' "$1" | tr -d '\000-\037' | sed 's/\\/\\\\/g; s/"/\\"/g'
}

HOST=$(hostname 2>/dev/null || uname -n)
# The name the benchmark run is labelled with: the host's own only with --include-serials.
HOST_SENT="this host"
[ "$INCLUDE_IDS" -eq 1 ] && HOST_SENT=$HOST
BENCH_WHERE=""
if [ -n "$BENCH_DIR" ]; then
    [ -d "$BENCH_DIR" ] || die "--benchmark $BENCH_DIR: no such directory"
    [ -w "$BENCH_DIR" ] || [ "$DRY_RUN" -eq 1 ] || die "--benchmark $BENCH_DIR: not writable by $(id -un 2>/dev/null || echo this user)"
    BENCH_DIR=$(cd "$BENCH_DIR" && pwd -P) || die "--benchmark: cannot enter $BENCH_DIR"
    free_kib=$(df -Pk "$BENCH_DIR" | awk 'NR == 2 { print $4 }')
    case "$free_kib" in
        ''|*[!0-9]*) die "cannot read the free space of $BENCH_DIR (df -Pk)" ;;
    esac
    if [ "$((free_kib * 1024))" -lt "$((2 * SIZE_BYTES))" ]; then
        die "$BENCH_DIR has $((free_kib / 1024)) MiB free; a $SIZE test file needs twice that ($((2 * SIZE_BYTES / 1048576)) MiB): use a smaller --size or another directory"
    fi
    # Where it runs: a ZFS dataset (its properties and pool) or another file system (type and device).
    DATASET=$(zfs list -H -o name "$BENCH_DIR" 2>/dev/null | head -n 1)
    if [ -n "$DATASET" ]; then
        BENCH_POOL=${DATASET%%/*}
        props=$(zfs get -H -p -o property,value recordsize,compression,sync,primarycache "$DATASET" 2>/dev/null)
        prop() { printf '%s\n' "$props" | awk -v p="$1" '$1 == p { print $2; exit }'; }
        RECORDSIZE=$(prop recordsize)
        COMPRESSION=$(prop compression)
        SYNC=$(prop sync)
        PRIMARYCACHE=$(prop primarycache)
        # O_DIRECT on ZFS: ignored before 2.3, bypasses the ARC from 2.3 on; keep the ARC in, as the pool serves data.
        DIRECT=0
        BENCH_WHERE="dataset $DATASET (pool $BENCH_POOL): recordsize=$RECORDSIZE compression=$COMPRESSION sync=$SYNC primarycache=$PRIMARYCACHE"
        LABEL="$HOST_SENT: pool $BENCH_POOL, dataset $DATASET"
        TARGET_KIND=pool
        TARGET=$DATASET
        SETTINGS="{\"extra\": {\"host\": \"$(json_str "$HOST_SENT")\", \"pool\": \"$(json_str "$BENCH_POOL")\", \"dataset\": \"$(json_str "$DATASET")\", \"primarycache\": \"$(json_str "$PRIMARYCACHE")\", \"direct\": \"0\", \"collect\": \"$COLLECT_VERSION\"}"
        case "$SYNC" in standard|always|disabled) SETTINGS="$SETTINGS, \"sync\": \"$SYNC\"" ;; esac
        [ -n "$COMPRESSION" ] && SETTINGS="$SETTINGS, \"compression\": \"$(json_str "$COMPRESSION")\""
        is_count "$RECORDSIZE" && SETTINGS="$SETTINGS, \"recordsize_bytes\": \"$RECORDSIZE\""
        SETTINGS="$SETTINGS}"
    else
        FSTYPE=""
        DEVICE=""
        if have findmnt; then
            FSTYPE=$(findmnt -n -o FSTYPE -T "$BENCH_DIR" 2>/dev/null | head -n 1)
            DEVICE=$(findmnt -n -o SOURCE -T "$BENCH_DIR" 2>/dev/null | head -n 1)
        fi
        [ -n "$DEVICE" ] || DEVICE=$(df -P "$BENCH_DIR" | awk 'NR == 2 { print $1 }')
        [ -n "$FSTYPE" ] || FSTYPE=$(stat -f -c %T "$BENCH_DIR" 2>/dev/null || echo unknown)
        case "$FSTYPE" in
            tmpfs|ramfs|zfs) DIRECT=0 ;;  # no O_DIRECT there
            *) DIRECT=1 ;;
        esac
        BENCH_POOL=""
        DATASET=""
        BENCH_WHERE="$FSTYPE on $DEVICE (not ZFS)"
        LABEL="$HOST_SENT: $DEVICE ($FSTYPE)"
        TARGET_KIND=other
        TARGET="$DEVICE ($FSTYPE) at $BENCH_DIR"
        SETTINGS="{\"extra\": {\"host\": \"$(json_str "$HOST_SENT")\", \"filesystem\": \"$(json_str "$FSTYPE")\", \"device\": \"$(json_str "$DEVICE")\", \"direct\": \"$DIRECT\", \"collect\": \"$COLLECT_VERSION\"}}"
    fi
    case "$(uname -s)" in
        Linux) ENGINE=libaio ;;
        *) ENGINE=posixaio ;;
    esac
fi

# The CrystalDiskMark 8 "Default" set (docs/benchmark-formats.md): SEQ1M Q8T1, SEQ1M Q1T1,
# RND4K Q32T1, RND4K Q1T1, each read then write, one after another (stonewall), one test file.
write_jobs() {
    cat <<EOF
[global]
filename=$1
size=$SIZE_BYTES
runtime=$RUNTIME
time_based=1
direct=$DIRECT
ioengine=$ENGINE
group_reporting=1
stonewall

[SEQ1M-Q8T1-read]
rw=read
bs=1m
iodepth=8

[SEQ1M-Q8T1-write]
rw=write
bs=1m
iodepth=8

[SEQ1M-Q1T1-read]
rw=read
bs=1m
iodepth=1
ioengine=psync

[SEQ1M-Q1T1-write]
rw=write
bs=1m
iodepth=1
ioengine=psync

[RND4K-Q32T1-read]
rw=randread
bs=4k
iodepth=32

[RND4K-Q32T1-write]
rw=randwrite
bs=4k
iodepth=32

[RND4K-Q1T1-read]
rw=randread
bs=4k
iodepth=1
ioengine=psync

[RND4K-Q1T1-write]
rw=randwrite
bs=4k
iodepth=1
ioengine=psync
EOF
}

# ------------------------------------------------------------------ HTTP

BOUNDARY="zfsplanner-collect-$$-$(date +%s)"

part_field() {  # BODY NAME VALUE
    printf -- '--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' "$BOUNDARY" "$2" "$3" >>"$1"
}

part_file() {  # BODY NAME FILENAME PATH TYPE
    {
        printf -- '--%s\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\nContent-Type: %s\r\n\r\n' \
            "$BOUNDARY" "$2" "$3" "$5"
        cat "$4"
        printf '\r\n'
    } >>"$1"
}

part_end() {
    printf -- '--%s--\r\n' "$BOUNDARY" >>"$1"
}

# post PATH BODY -> sets STATUS and leaves the answer in $WORK/answer; exits 2 when the server
# cannot be reached or refuses the token.
post() {
    url="$SERVER$1"
    rm -f "$WORK/answer" "$WORK/headers"
    # The token goes in a config file in $WORK (mode 700), never on a command line: other users see
    # arguments in ps. printf is a shell builtin, so writing it runs no command either.
    if [ "$HTTP" = curl ]; then
        printf 'header = "Authorization: Token %s"\n' "$TOKEN" >"$WORK/curl.conf"
        STATUS=$(curl -sS -K "$WORK/curl.conf" -o "$WORK/answer" -w '%{http_code}' \
            -H "Content-Type: multipart/form-data; boundary=$BOUNDARY" -H "User-Agent: zfsplanner-collect/$COLLECT_VERSION" \
            --data-binary "@$2" "$url" 2>"$WORK/http.err")
        rc=$?
        rm -f "$WORK/curl.conf"
        if [ "$rc" -ne 0 ] || [ "$STATUS" = 000 ]; then
            die "cannot reach $SERVER: $(tr '\n' ' ' <"$WORK/http.err")"
        fi
    else
        # GNU wget reads its settings from --config FILE (wgetrc syntax: header = ...).
        printf 'header = Authorization: Token %s\n' "$TOKEN" >"$WORK/wgetrc"
        wget --config="$WORK/wgetrc" -q -S -O "$WORK/answer" --content-on-error \
            --header="Content-Type: multipart/form-data; boundary=$BOUNDARY" \
            --user-agent="zfsplanner-collect/$COLLECT_VERSION" \
            --post-file="$2" "$url" 2>"$WORK/headers"
        rm -f "$WORK/wgetrc"
        STATUS=$(awk '$1 ~ /^HTTP\// { code = $2 } END { print code }' "$WORK/headers")
        [ -n "$STATUS" ] || die "cannot reach $SERVER: $(grep -v '^ ' "$WORK/headers" | tr '\n' ' ')"
    fi
    case "$STATUS" in
        401|403) die "the server refused the token (expired, revoked, or not allowed to upload): open $SERVER/imports/collect/ for a new command" ;;
    esac
}

answer_detail() {
    # The server's message in one line ({"detail": ...} or the field errors).
    tr '\n' ' ' <"$WORK/answer" | cut -c1-400
}

json_value() {  # KEY: the first "KEY": "text" or "KEY": number of the answer
    tr ',{}' '\n' <"$WORK/answer" | sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\"]*\)\"\{0,1\} *\$/\1/p" | head -n 1
}

# ------------------------------------------------------------------ collect

# run_output FILE COMMAND...: the output after its "$ command" line, as the importer reads it.
run_output() {
    out=$1
    shift
    printf '$ %s\n' "$*" >"$out"
    if "$@" >>"$out" 2>"$WORK/cmd.err"; then
        return 0
    fi
    return 1
}

is_json_output() {
    sed -n '2p' "$1" | grep -q '^[[:space:]]*{'
}

collect_pool() {  # POOL DIR: one file per output in DIR, names in DIR/names (name<TAB>file)
    p=$1
    dir=$2
    mkdir -p "$dir"
    : >"$dir/list"
    n=0
    add() {  # NAME COMMAND...
        name=$1
        shift
        n=$((n + 1))
        if run_output "$dir/$n" "$@"; then
            printf '%s\t%s\n' "$n" "$name" >>"$dir/list"
            return 0
        fi
        return 1
    }
    add_json() {
        name=$1
        shift
        n=$((n + 1))
        if run_output "$dir/$n" "$@" && is_json_output "$dir/$n"; then
            printf '%s\t%s\n' "$n" "$name" >>"$dir/list"
        fi
    }
    add_vdevs() {
        name=$1
        shift
        n=$((n + 1))
        if run_output "$dir/$n" "$@" && grep -q '^root-0[[:space:]]' "$dir/$n"; then
            printf '%s\t%s\n' "$n" "$name" >>"$dir/list"
        fi
    }
    add "zpool status $p" zpool status "$p" || fail "zpool status $p failed: $(tr '\n' ' ' <"$WORK/cmd.err")"
    add "zpool list -v -p $p" zpool list -v -p "$p" || say "note: zpool list -v -p $p failed; sizes come from the other outputs"
    add "zpool get -p all $p" zpool get -p all "$p" || true
    # Each vdev's properties, among them the ashift it really has (OpenZFS 2.2 and later; an older zpool
    # refuses all-vdevs, or reads it as a pool name: kept only when the root vdev's rows are there).
    add_vdevs "zpool get -p all $p all-vdevs" zpool get -p all "$p" all-vdevs
    # Filesystems and volumes: snapshots are not modelled and can be many thousands of lines.
    add "zfs get -p -r -t filesystem,volume all $p" zfs get -p -r -t filesystem,volume all "$p" || true
    if have lsblk; then
        add_json "lsblk -b -J" lsblk -b -J -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA
        if ! grep -q 'lsblk' "$dir/list"; then
            add "lsblk -b" lsblk -b -o NAME,SIZE,LOG-SEC,PHY-SEC,MODEL,SERIAL,ROTA || true
        fi
    fi
    add "zfs version" zfs version || true
    # The JSON forms (OpenZFS 2.3 and later): exact numbers, no columns to line up.
    add_json "zpool status -j -p $p" zpool status -j -p "$p"
    add_json "zpool list -v -j --json-int $p" zpool list -v -j --json-int "$p"
    add_json "zpool get -j -p all $p" zpool get -j -p all "$p"
    add_json "zpool get -j -p all $p all-vdevs" zpool get -j -p all "$p" all-vdevs
    add_json "zfs get -j -p -r -t filesystem,volume all $p" zfs get -j -p -r -t filesystem,volume all "$p"
    add_json "zfs version -j" zfs version -j
}

# ------------------------------------------------------------------ serial numbers and the host name

# The disks' identifiers in the outputs of DIR, one a line: lsblk's SERIAL column (JSON or table), the
# serial at the end of a by-id name (ata-MODEL_SERIAL-part1, nvme-MODEL_SERIAL) and the WWN or EUI of
# wwn-0x..., scsi-3..., nvme-eui.... names.
disk_ids() {  # DIR
    while IFS="$(printf '\t')" read -r file name; do
        awk '
            function trim(v) { sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); return v }
            function id_of(t,    i) {
                sub(/-part[0-9]+$/, "", t)
                if (t ~ /^(wwn-|nvme-eui\.|scsi-3)[0-9A-Za-z.]+$/) { i = t; sub(/^[a-z]+-/, "", i); return i }
                if (t ~ /^(ata|nvme|scsi|usb|sas|mmc|virtio|memstick)-.*_[^_]+$/) { i = t; sub(/^.*_/, "", i); return i }
                return ""
            }
            NR == 1 { table = ($0 ~ /^\$ lsblk/ && $0 !~ / -J/); next }
            table && NR == 2 && (c = index($0, "SERIAL")) > 0 {
                rest = substr($0, c + 6); match(rest, /[^ ]/)
                width = RSTART ? 6 + RSTART - 1 : 0; start = c; next
            }
            {
                line = $0
                while (match(line, /"serial": *"[^"]*"/)) {
                    v = substr(line, RSTART, RLENGTH); sub(/^"serial": *"/, "", v); sub(/"$/, "", v); print v
                    line = substr(line, RSTART + RLENGTH)
                }
                if (table && start) print trim(width ? substr($0, start, width) : substr($0, start))
                n = split($0, words, /[ \t",\/=]+/)
                for (k = 1; k <= n; k++) if ((v = id_of(words[k])) != "") print v
            }
        ' "$DIR_OF_IDS/$file"
    done <"$DIR_OF_IDS/list"
}

# hide_ids DIR: replace every disk identifier and the host's name in the outputs of DIR by a stand-in of
# the same length (S0001..., H0001...), the same in every output, so columns stay aligned and the
# importer still matches lsblk's rows with zpool status's by-id names.
hide_ids() {  # DIR
    DIR_OF_IDS=$1
    {
        disk_ids | awk 'length($0) >= 5 && !seen[$0]++ { printf "%s\tS%d\n", $0, ++n }'
        for h in "$HOST" "${HOST%%.*}"; do
            case " $POOLS " in *" $h "*) continue ;; esac
            [ "${#h}" -ge 3 ] && printf '%s\tH1\n' "$h"
        done
    } | awk -F '\t' '!seen[$1]++' >"$DIR_OF_IDS/ids"
    [ -s "$DIR_OF_IDS/ids" ] || return 0
    while IFS="$(printf '\t')" read -r file name; do
        awk -F '\n' '
            function pad(stand, len,    head) {
                head = substr(stand, 1, 1); stand = substr(stand, 2)
                while (length(stand) < len - 1) stand = "0" stand
                return head stand
            }
            NR == FNR { split($0, f, "\t"); n++; id[n] = f[1]; to[n] = pad(f[2], length(f[1])); next }
            FNR == 1 {  # longest first, so an identifier inside a longer one is not replaced first
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                    if (length(id[j]) > length(id[i])) { t = id[i]; id[i] = id[j]; id[j] = t; t = to[i]; to[i] = to[j]; to[j] = t }
            }
            {
                line = $0
                for (i = 1; i <= n; i++) {
                    out = ""; rest = line; len = length(id[i])
                    while ((at = index(rest, id[i])) > 0) {
                        before = at > 1 ? substr(rest, at - 1, 1) : (out == "" ? "" : substr(out, length(out), 1))
                        after = substr(rest, at + len, 1)
                        if (before ~ /^([ \t_"\/=:-])?$/ && after ~ /^([ \t",\/:.-])?$/) out = out substr(rest, 1, at - 1) to[i]
                        else out = out substr(rest, 1, at - 1 + len)
                        rest = substr(rest, at + len)
                    }
                    line = out rest
                }
                print line
            }
        ' "$DIR_OF_IDS/ids" "$DIR_OF_IDS/$file" >"$DIR_OF_IDS/$file.hidden" && mv "$DIR_OF_IDS/$file.hidden" "$DIR_OF_IDS/$file"
    done <"$DIR_OF_IDS/list"
}

import_pool() {  # POOL
    p=$1
    dir="$WORK/pool-$p"
    collect_pool "$p" "$dir"
    [ "$INCLUDE_IDS" -eq 1 ] || hide_ids "$dir"
    body="$WORK/import.body"
    : >"$body"
    part_field "$body" pool "$p"
    [ -n "$DESIGN" ] && part_field "$body" design "$DESIGN"
    while IFS="$(printf '\t')" read -r file name; do
        part_file "$body" files "$name" "$dir/$file" "text/plain; charset=utf-8"
    done <"$dir/list"
    part_end "$body"
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '=== POST %s/api/pool-imports/ (multipart/form-data, Authorization: Token %.8s...)\n' "${SERVER:-SERVER}" "${TOKEN:-TOKEN}"
        printf 'pool=%s\n' "$p"
        if [ "$INCLUDE_IDS" -eq 1 ]; then
            printf '=== disk serial numbers and the host name as they are (--include-serials)\n'
        else
            printf '=== %s disk serial numbers or host names replaced by stand-ins of the same length (--include-serials sends them)\n' \
                "$(awk 'END { print NR }' "$dir/ids" 2>/dev/null || echo 0)"
        fi
        [ -n "$DESIGN" ] && printf 'design=%s\n' "$DESIGN"
        while IFS="$(printf '\t')" read -r file name; do
            printf '=== files: %s\n' "$name"
            cat "$dir/$file"
        done <"$dir/list"
        return 0
    fi
    say "sending the outputs of pool $p to $SERVER ..."
    post /api/pool-imports/ "$body"
    case "$STATUS" in
        201) ;;
        *) fail "the server could not import pool $p (HTTP $STATUS): $(answer_detail)" ;;
    esac
    link=$(json_value url)
    say "pool $p: the import preview (model vs your pool):"
    printf '%s%s\n' "$SERVER" "$link"
}

for p in $POOLS; do
    import_pool "$p"
done

# ------------------------------------------------------------------ benchmark

[ -n "$BENCH_DIR" ] || exit 0

if [ "$DRY_RUN" -eq 1 ]; then
    printf '=== benchmark (not run with --dry-run): %s in %s, %s s per job, %s time(s)\n' "$SIZE" "$BENCH_DIR" "$RUNTIME" "$REPEAT"
    printf 'where: %s\nlabel: %s\nsettings: %s\n' "$BENCH_WHERE" "$LABEL" "$SETTINGS"
    printf '=== fio job file\n'
    write_jobs "$BENCH_DIR/zfsplanner-collect-TEST.tmp"
    printf '=== POST %s/api/benchmark-uploads/ (multipart/form-data), once per run (%s): files=<fio JSON>, label, target_kind=%s, target, settings%s\n' \
        "${SERVER:-SERVER}" "$REPEAT" "$TARGET_KIND" "${DESIGN:+, design=$DESIGN}"
    exit 0
fi

FIO_VERSION=$(fio --version 2>/dev/null)
say "benchmark on $BENCH_WHERE"
failed_runs=0
i=1
while [ "$i" -le "$REPEAT" ]; do
    TEST_FILE="$BENCH_DIR/zfsplanner-collect-$$.tmp"
    write_jobs "$TEST_FILE" >"$WORK/jobs.fio"
    say "run $i of $REPEAT: 8 fio jobs of $RUNTIME s on a $SIZE test file in $BENCH_DIR (about $((8 * RUNTIME)) s plus writing the file) ..."
    fio_rc=0
    rm -f "$WORK/fio.json"
    fio --output-format=json --output="$WORK/fio.json" "$WORK/jobs.fio" 2>"$WORK/fio.err" || fio_rc=$?
    rm -f "$TEST_FILE"
    TEST_FILE=""
    [ "$fio_rc" -le 128 ] || interrupted "$fio_rc"  # fio killed by a signal (Ctrl-C, kill): see interrupted()
    [ -s "$WORK/fio.json" ] || fail "fio failed (exit $fio_rc) and wrote no results: $(tr '\n' ' ' <"$WORK/fio.err" | cut -c1-400)"

    body="$WORK/bench.body"
    : >"$body"
    part_field "$body" label "$LABEL"
    part_field "$body" target_kind "$TARGET_KIND"
    part_field "$body" target "$TARGET"
    part_field "$body" settings "$SETTINGS"
    part_field "$body" notes "collect.sh $COLLECT_VERSION on $HOST_SENT: $FIO_VERSION, CrystalDiskMark-like job set, --size $SIZE, --runtime $RUNTIME s per job, direct=$DIRECT, in $BENCH_DIR; run $i of $REPEAT"
    [ -n "$DESIGN" ] && part_field "$body" design "$DESIGN"
    safe_name=$(printf '%s' "fio-$HOST_SENT-${DATASET:-$FSTYPE}-$i" | tr -c 'A-Za-z0-9._-' '_')
    part_file "$body" files "$safe_name.json" "$WORK/fio.json" "application/json"
    part_end "$body"
    say "sending the fio results of run $i to $SERVER ..."
    post /api/benchmark-uploads/ "$body"
    case "$STATUS" in
        200|201) ;;
        *) fail "the server did not take the benchmark run (HTTP $STATUS): $(answer_detail)" ;;
    esac
    run=$(json_value run)
    say "benchmark run $i of $REPEAT (parsed in the background):"
    printf '%s/benchmarks/%s/\n' "$SERVER" "$run"
    [ "$fio_rc" -eq 0 ] || failed_runs=$((failed_runs + 1))
    i=$((i + 1))
done
[ "$failed_runs" -eq 0 ] || fail "fio ended with an error in $failed_runs of $REPEAT run(s) (their results were sent; each run's page says what failed)"
exit 0
}

main "$@" </dev/null
