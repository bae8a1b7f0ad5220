#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
/* OpenSSL's libcrypto, for its SHA-256 (EVP_Digest), HMAC-SHA256 (HMAC) and AES-256-GCM
   (EVP_Encrypt and EVP_Decrypt): libpq already loads it, so the service gains no shared library,
   and OpenSSL uses the CPU's SHA and AES instructions where they exist. Only
   Sources/Registry/Crypto uses this module. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
