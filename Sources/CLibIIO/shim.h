// libiio 0.24 (Debian libiio-dev), found through pkg-config `libiio`.
#include <iio.h>
