#!/usr/bin/env bash
# Builds the Java client with the plain JDK tools (no download): build/cardkey-client.jar from
# src/main/java, and the tests into build/test-classes. Usage: ./build.sh
set -euo pipefail
cd "$(dirname "$0")"
rm -rf build/classes build/test-classes
mkdir -p build/classes build/test-classes
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -d build/classes $(find src/main/java -name '*.java' | sort)
jar --create --file build/cardkey-client.jar -C build/classes .
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -cp build/classes -d build/test-classes $(find src/test/java -name '*.java' | sort)
echo "built build/cardkey-client.jar and build/test-classes"
