/// A self-signed certificate for `*.bench.example` and its key, made once with
/// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -subj "/CN=*.bench.example"`,
/// for the https variant of the fetch benchmark (`--tls`). Not a secret: it names no real host.
enum BenchCertificate {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBpzCCAU2gAwIBAgIUBlXge5dtHuYTCDmOOsat71cRsG0wCgYIKoZIzj0EAwIw
        GjEYMBYGA1UEAwwPKi5iZW5jaC5leGFtcGxlMCAXDTI2MTEyMjE3MjIyMloYDzIx
        MjYxMDI5MTcyMjIyWjAaMRgwFgYDVQQDDA8qLmJlbmNoLmV4YW1wbGUwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAARl6OP0s6EEJ37qSl6QYqNVCRKjnU8m7/3moB4e
        jMcvbpqlbnO9bqT5GJCJam3FfybGIMW3QrGbtkYByFT+d5Evo28wbTAdBgNVHQ4E
        FgQU142TifAigafzbmyWU+7RwZ0LLnAwHwYDVR0jBBgwFoAU142TifAigafzbmyW
        U+7RwZ0LLnAwDwYDVR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgg8qLmJlbmNoLmV4
        YW1wbGUwCgYIKoZIzj0EAwIDSAAwRQIhAIrre8R3X0VHOlfrT+SDuHRhh15YB2by
        JHJFo9ZHU40XAiAQBzwJjAsLhR9tXWtWhSYjVaxR0yo7mNv9cUQUfLeTzA==
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdbiLbnBVJ7zjsMHH
        ldY6xSiLKaYRtprHghV5g0K80qChRANCAARl6OP0s6EEJ37qSl6QYqNVCRKjnU8m
        7/3moB4ejMcvbpqlbnO9bqT5GJCJam3FfybGIMW3QrGbtkYByFT+d5Ev
        -----END PRIVATE KEY-----
        """
}
