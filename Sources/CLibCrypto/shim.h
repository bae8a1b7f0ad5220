#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
/* OpenSSL's libcrypto, for its SHA-256 (EVP_Digest) and HMAC-SHA256 (HMAC): libpq already loads
   it, so the service gains no shared library, and OpenSSL's hashing uses the CPU's SHA
   extensions where they exist. Only Sources/Registry/Crypto uses this module. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
