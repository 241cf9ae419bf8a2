#!/bin/sh
# Build memcount against one fork's CPU libdarknet.so (as the oracle harness's build.sh leaves it).
#   ./build.sh pjreddie|alexeyab DARKNET_SRC OUT_DIR
set -eu
fork=$1; src=$2; out=$3
here=$(cd "$(dirname "$0")" && pwd)
def=""
[ "$fork" = alexeyab ] && def=-DMEMCOUNT_ALEXEYAB
mkdir -p "$out"
gcc -O1 -g -Wall $def -I"$src/include" "$here/memcount.c" -o "$out/memcount-$fork" \
    -L"$src" -ldarknet -Wl,-rpath,"$src" -ldl -lm -pthread
echo "built $out/memcount-$fork"
