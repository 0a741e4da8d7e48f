// Debian's libpq (PostgreSQL's own client library, package libpq-dev): the shared store's connection, with TLS
// through the system's OpenSSL when a URL asks for sslmode=require, so the package builds no second BoringSSL.
#include <libpq-fe.h>
