#!/usr/bin/env bash
# Installs the real servers the project runs on a machine without Docker, once, into a cache
# directory outside the repository. Idempotent: a second run only checks and takes seconds.
# Everything comes from package registries (Debian, Go module proxy, Maven Central, npm).
# Each server prints one progress line when it is checked or installed.
set -euo pipefail

CACHE_DIR="${LOCAL_INFRA_CACHE:-$HOME/.cache/homereport}"
MONGO_JAVA_SERVER_VERSION="1.47.0"
VERSITYGW_VERSION="v1.7.0"
TOXIPROXY_VERSION="v2.5.0"
# promtool checks the alert rules and every process's /metrics (gateway/test/metrics.test.ts).
# Prometheus publishes its Go module as v0.<minor>.<patch>: v0.316.0 is Prometheus 3.16.0.
PROMETHEUS_MODULE_VERSION="v0.316.0"
KAFKA_VERSION="3.9.1"
# kustomize builds the Kubernetes overlays (infra/k8s) in the manifest test.
KUSTOMIZE_VERSION="v5.8.1"
# The Node release of the image (Dockerfile); the compiled-build test runs the build on it too.
NODE_LTS_VERSION="24.21.0"
WITH_BROWSER="${WITH_BROWSER:-0}"
# The tools only tests and benchmarks use (Toxiproxy, promtool, kustomize, the image's Node):
# `npm start` leaves them out (WITH_TEST_TOOLS=0), so a first start builds no Prometheus.
WITH_TEST_TOOLS="${WITH_TEST_TOOLS:-1}"

mkdir -p "$CACHE_DIR/bin"
step() { printf '[provision] %s\n' "$*"; }
fail() { printf '[provision] ERROR: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "$1 is not installed; $2"; }

apt_install() {
  local missing=("$@")
  need apt-get "install these Debian packages by hand: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  step "installing Debian packages: ${missing[*]}"
  if [ ! -f "$CACHE_DIR/.apt-updated" ]; then
    $sudo apt-get update -qq || fail "apt-get update failed"
    touch "$CACHE_DIR/.apt-updated"
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || fail "apt-get install ${missing[*]} failed"
}

# --- Redis (Debian) and, for browser tests, Chromium (Debian) ---
debs=()
command -v redis-server >/dev/null 2>&1 || debs+=(redis-server)
if [ "$WITH_BROWSER" = 1 ] && [ ! -x /usr/bin/chromium ]; then debs+=(chromium fonts-liberation); fi
[ ${#debs[@]} -eq 0 ] || apt_install "${debs[@]}"
step "redis-server: $(command -v redis-server)"

# --- mongo-java-server (MongoDB wire protocol over one H2 MVStore file), jars from Maven Central ---
# Its launcher (infra/local/mongo/*.java: the entry point and the faster index key order, see
# docs/decisions/005) is compiled here, again whenever those sources change.
mongo_dir="$CACHE_DIR/mongo-java-server-$MONGO_JAVA_SERVER_VERSION"
launcher_dir="$(cd "$(dirname "$0")" && pwd)/mongo"
if [ ! -f "$mongo_dir/.complete" ]; then
  need java "install a Java 17+ runtime (the local MongoDB server runs on the JVM)"
  need mvn "install Maven (mongo-java-server's jars come from Maven Central)"
  step "downloading mongo-java-server $MONGO_JAVA_SERVER_VERSION jars from Maven Central (first time only)"
  rm -rf "$mongo_dir"; mkdir -p "$mongo_dir"
  cat > "$mongo_dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.infra</groupId><artifactId>mongo-runtime</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>de.bwaldvogel</groupId><artifactId>mongo-java-server-h2-backend</artifactId><version>$MONGO_JAVA_SERVER_VERSION</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-simple</artifactId><version>2.0.17</version></dependency>
  </dependencies>
</project>
POM
  (cd "$mongo_dir" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=libs -DincludeScope=runtime) \
    || fail "could not fetch mongo-java-server jars with Maven"
  touch "$mongo_dir/.complete"
fi
launcher_stamp="$mongo_dir/classes/.sources-$(cat "$launcher_dir"/*.java | sha256sum | cut -c1-16)"
if [ ! -f "$launcher_stamp" ]; then
  need javac "install a Java 17+ JDK (the local MongoDB launcher is compiled from source)"
  step "compiling the mongo-java-server launcher"
  rm -rf "$mongo_dir/classes"; mkdir -p "$mongo_dir/classes"
  javac -cp "$mongo_dir/libs/*" -d "$mongo_dir/classes" "$launcher_dir"/*.java || fail "could not compile $launcher_dir"
  touch "$launcher_stamp"
fi
step "mongo-java-server: $mongo_dir ($(ls "$mongo_dir/libs" | wc -l) jars)"

# Builds a Go command from the module proxy into the cache, first time only: $1 what it is (for
# messages), $2 package@version, $3 the path to keep it at, $4 how long a build takes, and $5, if
# given, the version-less name in the cache's bin to link to it. It is built into a scratch folder
# and moved, because a command's own name (toxiproxy's is `server`) need not be the name it is kept under.
go_install() {
  local what="$1" pkg="$2" target="$3" takes="$4" link="${5:-}"
  if [ ! -x "$target" ]; then
    need go "install Go 1.21+ ($what is built from source)"
    step "building $what ${pkg##*@} (first time only, $takes)"
    local tmp path="${pkg%@*}" name
    tmp="$(mktemp -d)"
    GOBIN="$tmp" go install "$pkg" || fail "$what build failed"
    # go names the command after the package's last element, or the one before a major-version suffix (v5).
    name="$(basename "$path")"
    [[ "$name" =~ ^v[0-9]+$ ]] && name="$(basename "$(dirname "$path")")"
    mv "$tmp/$name" "$target"
    rm -rf "$tmp"
  fi
  [ -z "$link" ] || ln -sf "$(basename "$target")" "$CACHE_DIR/bin/$link"
  step "$what: $target"
}

# --- Versity S3 Gateway (S3 API over a posix directory), from the Go module proxy ---
go_install versitygw "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" "$CACHE_DIR/bin/versitygw" "a few minutes"

# --- Toxiproxy (a TCP proxy that injects network faults; bench:faults only), from the Go module proxy ---
[ "$WITH_TEST_TOOLS" = 1 ] && go_install toxiproxy "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" "$CACHE_DIR/bin/toxiproxy-server" "about a minute"

# --- promtool (Prometheus's rule and exposition checker), from the Go module proxy ---
[ "$WITH_TEST_TOOLS" = 1 ] && go_install promtool "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_MODULE_VERSION" \
  "$CACHE_DIR/bin/promtool-$PROMETHEUS_MODULE_VERSION" "several minutes" promtool

# --- Apache Kafka (KRaft), jars from Maven Central ---
kafka_dir="$CACHE_DIR/kafka-$KAFKA_VERSION"
if [ ! -f "$kafka_dir/.complete" ]; then
  need java "install a Java 17+ runtime (Kafka runs on the JVM)"
  need mvn "install Maven (Kafka's jars come from Maven Central)"
  step "downloading Kafka $KAFKA_VERSION jars from Maven Central (first time only)"
  rm -rf "$kafka_dir"; mkdir -p "$kafka_dir"
  cat > "$kafka_dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.infra</groupId><artifactId>kafka-runtime</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>
  </dependencies>
</project>
POM
  (cd "$kafka_dir" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=libs -DincludeScope=runtime) \
    || fail "could not fetch Kafka jars with Maven"
  touch "$kafka_dir/.complete"
fi
step "kafka: $kafka_dir/libs ($(ls "$kafka_dir/libs" | wc -l) jars)"
if [ "$WITH_TEST_TOOLS" != 1 ]; then
  step "done (without the test tools); cache: $CACHE_DIR"
  exit 0
fi

# --- kustomize, from the Go module proxy ---
go_install kustomize "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION" \
  "$CACHE_DIR/bin/kustomize-$KUSTOMIZE_VERSION" "about a minute" kustomize

# --- Node $NODE_LTS_VERSION (the image's), from the npm registry's node-linux-<arch> package ---
node_dir="$CACHE_DIR/node-$NODE_LTS_VERSION"
if [ ! -x "$node_dir/bin/node" ]; then
  case "$(uname -m)" in x86_64) node_arch=x64 ;; aarch64 | arm64) node_arch=arm64 ;; *) fail "no Node package for $(uname -m)" ;; esac
  step "fetching Node $NODE_LTS_VERSION (node-linux-$node_arch from the npm registry, first time only)"
  node_tmp="$(mktemp -d)"
  (cd "$node_tmp" && npm pack --silent "node-linux-$node_arch@$NODE_LTS_VERSION" >/dev/null) || fail "npm pack node-linux-$node_arch failed"
  rm -rf "$node_dir"; mkdir -p "$node_dir"
  tar -xzf "$node_tmp"/node-linux-*.tgz -C "$node_dir" --strip-components=1 || fail "could not unpack Node"
  rm -rf "$node_tmp"
fi
step "node $NODE_LTS_VERSION: $node_dir/bin/node"
step "done; cache: $CACHE_DIR"
