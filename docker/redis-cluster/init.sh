#!/bin/sh
# Forms the scale stack's Redis Cluster once: 3 masters and 3 replicas over the nodes in
# REDIS_NODES (host:port, space-separated; fixed addresses, so a restarted node keeps its place).
# Idempotent: a cluster already formed (a later `up`) is only waited for; nodes that know each
# other without covering every slot are an error to look at, not something to paper over.
set -eu
: "${REDIS_NODES:?REDIS_NODES must list the cluster nodes (host:port ...)}"
TIMEOUT=${INIT_TIMEOUT_SECONDS:-60}

info() { redis-cli -h "${1%:*}" -p "${1##*:}" cluster info 2>/dev/null | tr -d '\r'; }
field() { printf '%s\n' "$1" | sed -n "s/^$2://p"; }
deadline=$(($(date +%s) + TIMEOUT))
before_deadline() { [ "$(date +%s)" -lt "$deadline" ] || { echo "redis-cluster-init: $1 within ${TIMEOUT}s" >&2; exit 1; }; }

for node in $REDIS_NODES; do
  until redis-cli -h "${node%:*}" -p "${node##*:}" ping 2>/dev/null | grep -q PONG; do
    before_deadline "$node did not answer PING"
    sleep 0.5
  done
done

formed=0 fresh=0
for node in $REDIS_NODES; do
  state=$(info "$node")
  if [ "$(field "$state" cluster_slots_assigned)" = 16384 ]; then formed=$((formed + 1));
  elif [ "$(field "$state" cluster_known_nodes)" = 1 ] && [ "$(field "$state" cluster_slots_assigned)" = 0 ]; then fresh=$((fresh + 1)); fi
done
count=$(echo $REDIS_NODES | wc -w)

if [ "$fresh" = "$count" ]; then
  echo "redis-cluster-init: forming the cluster over $REDIS_NODES"
  # shellcheck disable=SC2086 # one argument per node
  redis-cli --cluster create $REDIS_NODES --cluster-replicas 1 --cluster-yes
elif [ "$formed" -gt 0 ]; then
  echo "redis-cluster-init: the cluster is already formed ($formed of $count nodes see every slot)"
else
  echo "redis-cluster-init: the nodes are neither fresh nor one cluster: inspect them, or start again from empty volumes (down -v)" >&2
  for node in $REDIS_NODES; do echo "$node: $(info "$node" | head -n 6 | tr '\n' ' ')" >&2; done
  exit 1
fi

# Done when every node reports the cluster ok (every slot served by a reachable master).
for node in $REDIS_NODES; do
  until [ "$(field "$(info "$node")" cluster_state)" = ok ]; do
    before_deadline "$node did not report cluster_state:ok"
    sleep 0.5
  done
done
echo "redis-cluster-init: cluster_state:ok on every node"
# The roles reach every node by gossip: wait until the first one sees a replica per master.
first=${REDIS_NODES%% *}
nodes() { redis-cli -h "${first%:*}" -p "${first##*:}" cluster nodes | tr -d '\r'; }
until [ "$(nodes | grep -cE ' (myself,)?slave ')" -ge $((count / 2)) ]; do
  before_deadline "$first did not see $((count / 2)) replicas"
  sleep 0.5
done
nodes | cut -d' ' -f2,3 | sed 's/@[0-9]*//' | sort
