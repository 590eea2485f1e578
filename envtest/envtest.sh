#!/usr/bin/env bash
# envtest.sh — a real kube-apiserver v1.37.2 + etcd v3.7.0 for Conflict Lab's conformance
# tests, in the spirit of controller-runtime's envtest, built from Go modules (no downloads
# of prebuilt binaries).
#
#   envtest/envtest.sh build            build (or find cached) binaries; print their folder
#   envtest/envtest.sh start [DIR]      start etcd + kube-apiserver on 127.0.0.1 (random free
#                                       ports, self-signed TLS, static token); print DIR;
#                                       DIR/kubeconfig is the admin kubeconfig
#   envtest/envtest.sh stop DIR         stop them and delete DIR
#   envtest/envtest.sh run -- CMD...    build, start, run CMD with CONFLICTLAB_APISERVER and
#                                       KUBECONFIG set to the kubeconfig, stop (also on error
#                                       or Ctrl+C); exits with CMD's status
#
# Binaries are cached in ${CONFLICTLAB_ENVTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/conflictlab/envtest}
# under a folder keyed by the versions, the Go toolchain, the platform and a hash of the build
# module files, so a warm machine skips the build (≈12 min cold on 2 cores).
#
# Users in the token file (RBAC authorization):
#   admin   — group system:masters (everything)
#   nobody  — no permissions at all (tests the live mode's 403 message); its token is in
#             DIR/nobody.token
set -euo pipefail

K8S_VERSION=v1.37.2
ETCD_VERSION=v3.7.0
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export GOTOOLCHAIN=local

log() { echo "envtest: $*" >&2; }
die() { log "$*"; exit 1; }

cache_root() { echo "${CONFLICTLAB_ENVTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/conflictlab/envtest}"; }

bin_dir() {
  local gover goos goarch h
  gover=$(go env GOVERSION) goos=$(go env GOOS) goarch=$(go env GOARCH)
  # go.sum follows from go.mod, so the key hashes go.mod (and etcd's main) only.
  h=$(cat "$HERE"/build/kube-apiserver/go.mod "$HERE"/build/etcd/go.mod "$HERE"/build/etcd/main.go |
      sha256sum | cut -c1-12)
  echo "$(cache_root)/k8s-${K8S_VERSION}_etcd-${ETCD_VERSION}_${gover}_${goos}-${goarch}_${h}"
}

# build_one NAME MODULE_DIR PACKAGE OUT
build_one() {
  local name=$1 dir=$2 pkg=$3 out=$4 t0 t1
  if [ -x "$out" ]; then log "$name: cached at $out"; return 0; fi
  log "$name: building $pkg (cold: kube-apiserver takes ≈12 minutes on 2 cores)…"
  t0=$(date +%s)
  # -mod=mod: go.sum is committed, but let the go command complete it if a module is missing
  # (checked against the checksum database as usual). Nice so other builds keep going.
  (cd "$dir" && GOFLAGS="-mod=mod -buildvcs=false" nice -n 10 go build -trimpath -ldflags='-s -w' -o "$out.tmp.$$" "$pkg")
  mv -f "$out.tmp.$$" "$out"
  t1=$(date +%s)
  log "$name: built in $((t1 - t0))s ($(du -h "$out" | cut -f1))"
  echo "$name $((t1 - t0))" >>"$(dirname "$out")/build-times.txt"
}

cmd_build() {
  command -v go >/dev/null || die "go is not installed"
  local d; d=$(bin_dir)
  mkdir -p "$d"
  # One build at a time per cache folder, even across concurrent CI runs.
  exec 9>"$d/.lock"
  flock 9
  build_one etcd "$HERE/build/etcd" . "$d/etcd"
  build_one kube-apiserver "$HERE/build/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver "$d/kube-apiserver"
  flock -u 9
  echo "$d"
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p i
  for i in $(seq 1 200); do
    p=$(( (RANDOM << 15 | RANDOM) % 30000 + 20000 ))
    if port_free "$p"; then echo "$p"; return 0; fi
  done
  die "no free port found"
}

make_certs() {
  local dir=$1
  command -v openssl >/dev/null || die "openssl is not installed"
  (
    cd "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=conflictlab-envtest-ca" \
      -keyout ca.key -out ca.crt 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
      -keyout apiserver.key -out apiserver.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >san.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
      -extfile san.ext -out apiserver.crt 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    chmod 600 ./*.key
  )
}

start_once() {
  local dir=$1 bins=$2 ep pp sp token nobody
  ep=$(free_port); pp=$(free_port); sp=$(free_port)
  token=$(openssl rand -hex 24); nobody=$(openssl rand -hex 24)
  printf '%s,admin,admin-uid,"system:masters"\n%s,nobody,nobody-uid\n' "$token" "$nobody" >"$dir/tokens.csv"
  chmod 600 "$dir/tokens.csv"
  echo "$nobody" >"$dir/nobody.token"

  setsid "$bins/etcd" --name envtest --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$ep" --advertise-client-urls "http://127.0.0.1:$ep" \
    --listen-peer-urls "http://127.0.0.1:$pp" --initial-advertise-peer-urls "http://127.0.0.1:$pp" \
    --initial-cluster "envtest=http://127.0.0.1:$pp" \
    --unsafe-no-fsync --log-level warn >"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
  for _ in $(seq 1 300); do
    curl -s --max-time 2 "http://127.0.0.1:$ep/health" 2>/dev/null | grep -q '"health":"true"' && break
    kill -0 "$(cat "$dir/etcd.pid")" 2>/dev/null || { log "etcd exited:"; tail -20 "$dir/etcd.log" >&2; return 1; }
    sleep 0.1
  done

  setsid "$bins/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ep" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$sp" \
    --tls-cert-file "$dir/apiserver.crt" --tls-private-key-file "$dir/apiserver.key" \
    --cert-dir "$dir/cert-dir" \
    --token-auth-file "$dir/tokens.csv" \
    --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$dir/sa.pub" --service-account-signing-key-file "$dir/sa.key" \
    --service-cluster-ip-range 10.0.0.0/24 --endpoint-reconciler-type none \
    --disable-admission-plugins ServiceAccount \
    --profiling=false --v 0 >"$dir/kube-apiserver.log" 2>&1 &
  echo $! >"$dir/kube-apiserver.pid"
  local i
  for i in $(seq 1 600); do
    if [ "$(curl -s --max-time 2 --cacert "$dir/ca.crt" -H "Authorization: Bearer $token" \
            "https://127.0.0.1:$sp/readyz" 2>/dev/null)" = ok ]; then
      break
    fi
    kill -0 "$(cat "$dir/kube-apiserver.pid")" 2>/dev/null || { log "kube-apiserver exited:"; tail -30 "$dir/kube-apiserver.log" >&2; return 1; }
    sleep 0.1
    [ "$i" = 600 ] && { log "kube-apiserver not ready after 60s:"; tail -30 "$dir/kube-apiserver.log" >&2; return 1; }
  done

  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: envtest
  cluster:
    server: https://127.0.0.1:$sp
    certificate-authority-data: $(base64 -w0 <"$dir/ca.crt")
users:
- name: admin
  user:
    token: $token
- name: nobody
  user:
    token: $nobody
contexts:
- name: envtest
  context: {cluster: envtest, user: admin}
- name: envtest-nobody
  context: {cluster: envtest, user: nobody}
current-context: envtest
EOF
  chmod 600 "$dir/kubeconfig"
}

stop_procs() {
  local dir=$1 f pid
  for f in kube-apiserver etcd; do
    [ -f "$dir/$f.pid" ] || continue
    pid=$(cat "$dir/$f.pid")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/$f.pid"
  done
}

cmd_start() {
  local dir=${1:-} bins t0 t1 try
  bins=$(cmd_build)
  [ -n "$dir" ] || dir=$(mktemp -d "${TMPDIR:-/tmp}/conflictlab-envtest.XXXXXX")
  mkdir -p "$dir"
  t0=$(date +%s%N)
  make_certs "$dir"
  for try in 1 2 3; do
    if start_once "$dir" "$bins"; then
      t1=$(date +%s%N)
      log "ready in $(( (t1 - t0) / 1000000 ))ms: $(grep -m1 server: "$dir/kubeconfig" | awk '{print $2}') (kubeconfig $dir/kubeconfig)"
      echo "$dir"
      return 0
    fi
    log "start attempt $try failed; retrying with other ports"
    stop_procs "$dir"; rm -rf "$dir/etcd"
  done
  die "could not start kube-apiserver (logs in $dir)"
}

cmd_stop() {
  local dir=${1:?usage: envtest.sh stop DIR}
  stop_procs "$dir"
  if [ -z "${CONFLICTLAB_ENVTEST_KEEP:-}" ]; then rm -rf "$dir"; else log "kept $dir"; fi
}

cmd_run() {
  [ "${1:-}" = "--" ] && shift
  [ $# -gt 0 ] || die "usage: envtest.sh run -- CMD [ARGS…]"
  local dir rc=0
  dir=$(cmd_start)
  # The path is expanded now: the trap runs after this function returned.
  # shellcheck disable=SC2064
  trap "cmd_stop '$dir'" EXIT
  trap 'exit 130' INT TERM
  CONFLICTLAB_APISERVER="$dir/kubeconfig" KUBECONFIG="$dir/kubeconfig" \
    CONFLICTLAB_ENVTEST_DIR="$dir" "$@" || rc=$?
  return $rc
}

case "${1:-}" in
  build) shift; cmd_build "$@" ;;
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  run) shift; cmd_run "$@" ;;
  *) sed -n '2,25p' "$0"; exit 2 ;;
esac
