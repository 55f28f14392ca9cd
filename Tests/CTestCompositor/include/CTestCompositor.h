#include "xdg-shell-server-protocol.h"
