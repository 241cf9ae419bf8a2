#!/bin/sh
# Build memcount against one fork's CPU libdarknet.so (as the oracle harness's build.sh leaves it).
#   ./build.sh pjreddie|alexeyab|hank DARKNET_SRC OUT_DIR
set -eu
fork=$1; src=$2; out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ "$fork" = hank ]; then
  # hank-ai's C++ library, as the oracle's harness_hank is built
  lib="$src/build/src-lib"
  g++ -x c++ -std=c++17 -O1 -g -Wall -DNDEBUG -DMEMCOUNT_HANK -I"$src/src-lib" \
      $(pkg-config --cflags opencv4) "$here/memcount.c" -o "$out/memcount-$fork" \
      -L"$lib" -ldarknet -Wl,-rpath,"$lib" -ldl -lm -pthread
else
  def=""
  [ "$fork" = alexeyab ] && def=-DMEMCOUNT_ALEXEYAB
  gcc -O1 -g -Wall $def -I"$src/include" "$here/memcount.c" -o "$out/memcount-$fork" \
      -L"$src" -ldarknet -Wl,-rpath,"$src" -ldl -lm -pthread
fi
echo "built $out/memcount-$fork"
