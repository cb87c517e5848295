// zlib, for inflating the deflated entries of zip archives (replay uploads). Debian: zlib1g-dev.
#include <zlib.h>
