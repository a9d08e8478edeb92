// The one main() for every doctest binary: link //tests:doctest_main, write only TEST_CASEs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
