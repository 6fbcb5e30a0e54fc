// OpenSSL's libcrypto: AES-256-GCM (EVP) and HMAC-SHA256 for protected indexes, and a CSPRNG.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
