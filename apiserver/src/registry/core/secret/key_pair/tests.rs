//! Key pairs made with openssl (`ecparam -name prime256v1`, `genrsa -traditional 1024`,
//! `pkcs8 -topk8`, `genpkey -algorithm ed25519`, each with a self-signed `req -x509`).

use super::*;

const EC_CERT: &str = "\
-----BEGIN CERTIFICATE-----\n\
MIIBdjCCARugAwIBAgIUQ4f0NB703oihFHEHaLM+1SW4HF4wCgYIKoZIzj0EAwIw\n\
DzENMAsGA1UEAwwEZGlmZjAgFw0yNjExMzAwODMxMTRaGA8yMTI2MTEwNjA4MzEx\n\
NFowDzENMAsGA1UEAwwEZGlmZjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABDrB\n\
xpgYDUOlWd92eTIv9f02G7vqbhHxPUAqLnENDqExruntfxzYERGFUN4lFlQvxnvW\n\
sJiWCqoW7Hol4U3+rCSjUzBRMB0GA1UdDgQWBBRVZhex69qbw4O9vNbSNAGziIlR\n\
JDAfBgNVHSMEGDAWgBRVZhex69qbw4O9vNbSNAGziIlRJDAPBgNVHRMBAf8EBTAD\n\
AQH/MAoGCCqGSM49BAMCA0kAMEYCIQDrF55yIqS8PX/d3iE05OHcmIFWLNEtgiJU\n\
qI62Ipd2/AIhAIBfk1FoSj93Hy4l/pBprtJZ+QQuBUe98eouoeNUzhDI\n\
-----END CERTIFICATE-----\n\
";
const EC_KEY: &str = "\
-----BEGIN EC PRIVATE KEY-----\n\
MHcCAQEEIKJQqOlC9M/8LkZ535HrblU9a6vNvF/sALALm70RYBMZoAoGCCqGSM49\n\
AwEHoUQDQgAEOsHGmBgNQ6VZ33Z5Mi/1/TYbu+puEfE9QCoucQ0OoTGu6e1/HNgR\n\
EYVQ3iUWVC/Ge9awmJYKqhbseiXhTf6sJA==\n\
-----END EC PRIVATE KEY-----\n\
";
const EC_OTHER_KEY: &str = "\
-----BEGIN EC PRIVATE KEY-----\n\
MHcCAQEEIGdiIDRr0aS1DbBA6hRXKQ1gc1ujHj2nhGbtE5+N1VV6oAoGCCqGSM49\n\
AwEHoUQDQgAETCH0Zwub1ojEOyuPSCzk56x1leVZm8Q6/kYuslkOY2Ezrvv+EWgX\n\
x50kDnPiVv+ms98Dxkb0qjs4vym3eueRhg==\n\
-----END EC PRIVATE KEY-----\n\
";
const RSA_CERT: &str = "\
-----BEGIN CERTIFICATE-----\n\
MIIB+jCCAWOgAwIBAgIUY6N41ea7MRWYvUNsiFRiO7e2AwMwDQYJKoZIhvcNAQEL\n\
BQAwDjEMMAoGA1UEAwwDcnNhMCAXDTI2MTEzMDA4MzExNVoYDzIxMjYxMTA2MDgz\n\
MTE1WjAOMQwwCgYDVQQDDANyc2EwgZ8wDQYJKoZIhvcNAQEBBQADgY0AMIGJAoGB\n\
ALY9mWKBrkQXRlkgE5Z9ucu6yzMZIUESo8QH5xqbeqgheAeDDu6aGEx6IUxXvRJr\n\
xf8Jrnme8zXBVIDjMKJz+djdvOtHTfsywtydJ1mW0jKRl54AxBPsGwP9e9lqa3rU\n\
fJ9WpUt8I9OGs3QEBAzOtie56X3HvWskEYWBPP9tGIg7AgMBAAGjUzBRMB0GA1Ud\n\
DgQWBBT0jjQlXrsoSxwRMwFUL4ikqTfCXjAfBgNVHSMEGDAWgBT0jjQlXrsoSxwR\n\
MwFUL4ikqTfCXjAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4GBAKxq\n\
rc/MK8iRP+md+di4iRnRB9EmwnRA0g+YrAxnX/Nc7RzjU9Df26VCBtwAXK6V/lgm\n\
2rxo3FmdxNp+p1aaXO6YCaDAp7hWI/p771XpBh0nCQpL4zHz6jZf/elBMhIVqPWG\n\
cesVIyAhP/xtIPhPK4xQQZHyK+5Zfu5bPYr4nf5+\n\
-----END CERTIFICATE-----\n\
";
const RSA_KEY: &str = "\
-----BEGIN RSA PRIVATE KEY-----\n\
MIICXAIBAAKBgQC2PZliga5EF0ZZIBOWfbnLusszGSFBEqPEB+cam3qoIXgHgw7u\n\
mhhMeiFMV70Sa8X/Ca55nvM1wVSA4zCic/nY3bzrR037MsLcnSdZltIykZeeAMQT\n\
7BsD/XvZamt61HyfVqVLfCPThrN0BAQMzrYnuel9x71rJBGFgTz/bRiIOwIDAQAB\n\
AoGBAJBzVSAyoFoShM1iUoRn1Zx5zFUNZ0F4L9zTUsjRUrDwDn8N0AkqlXYRHFGx\n\
/gka6g8UsnpulmMWgg/DhSpPeUqoq9QPXn5rhHqIhx3XouFzSH6aN9bjRxbo5lg4\n\
K5VbNBfd+p1xgP2E7Fpy1WCi16T8U/65R8eAHzQZvo5l1BChAkEA5d1HHTtCzbmO\n\
fOxt4rDaIiiMHzZuT8WNmAzH3awgCWPsY8jh//gprq5MFlAns+4tXGrtTCaKreXN\n\
5TFqjbKZKwJBAMr2H+SnNv9cPChzs1FJ6cOe8SUmXkLVsNLmhm1P5e3vmStfwjR9\n\
PPkBKZGT4nZKJ5NjYDSr6TglrJ1+7EpSJTECQDYVhnH+S42UJ06FYqV/7xMybyW4\n\
7OOgG9y2xSAHK9KJzEj+Lw7HGSecoxJs8aqIU+v2zLaqKt8XvwY6RlPovdkCQD7J\n\
WSBxIjBpJisVb9mr1ecwWkU10181oBf+PIPAfc7XmjiyzO9T9vLJC0T/zMTvN8L+\n\
sRpaPDGkZfvq8cokE2ECQETb5ICIOmSLJZJBbAcDbFSl5U5sWfH/IRxZ9t44uRpV\n\
a7tgLOOmlupqkgXPjYzziglYPD7s+IBLgm0a3qccrfw=\n\
-----END RSA PRIVATE KEY-----\n\
";
const RSA_PKCS8_KEY: &str = "\
-----BEGIN PRIVATE KEY-----\n\
MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALY9mWKBrkQXRlkg\n\
E5Z9ucu6yzMZIUESo8QH5xqbeqgheAeDDu6aGEx6IUxXvRJrxf8Jrnme8zXBVIDj\n\
MKJz+djdvOtHTfsywtydJ1mW0jKRl54AxBPsGwP9e9lqa3rUfJ9WpUt8I9OGs3QE\n\
BAzOtie56X3HvWskEYWBPP9tGIg7AgMBAAECgYEAkHNVIDKgWhKEzWJShGfVnHnM\n\
VQ1nQXgv3NNSyNFSsPAOfw3QCSqVdhEcUbH+CRrqDxSyem6WYxaCD8OFKk95Sqir\n\
1A9efmuEeoiHHdei4XNIfpo31uNHFujmWDgrlVs0F936nXGA/YTsWnLVYKLXpPxT\n\
/rlHx4AfNBm+jmXUEKECQQDl3UcdO0LNuY587G3isNoiKIwfNm5PxY2YDMfdrCAJ\n\
Y+xjyOH/+CmurkwWUCez7i1cau1MJoqt5c3lMWqNspkrAkEAyvYf5Kc2/1w8KHOz\n\
UUnpw57xJSZeQtWw0uaGbU/l7e+ZK1/CNH08+QEpkZPidkonk2NgNKvpOCWsnX7s\n\
SlIlMQJANhWGcf5LjZQnToVipX/vEzJvJbjs46Ab3LbFIAcr0onMSP4vDscZJ5yj\n\
EmzxqohT6/bMtqoq3xe/BjpGU+i92QJAPslZIHEiMGkmKxVv2avV5zBaRTXTXzWg\n\
F/48g8B9zteaOLLM71P28skLRP/MxO83wv6xGlo8MaRl++rxyiQTYQJARNvkgIg6\n\
ZIslkkFsBwNsVKXlTmxZ8f8hHFn23ji5GlVru2As46aW6mqSBc+NjPOKCVg8Puz4\n\
gEuCbRrepxyt/A==\n\
-----END PRIVATE KEY-----\n\
";
const ED_CERT: &str = "\
-----BEGIN CERTIFICATE-----\n\
MIIBMDCB46ADAgECAhRnlLlIUm2hqQ0DbMDxqO3z3vc/9jAFBgMrZXAwDTELMAkG\n\
A1UEAwwCZWQwIBcNMjYxMTMwMDgzMTE1WhgPMjEyNjExMDYwODMxMTVaMA0xCzAJ\n\
BgNVBAMMAmVkMCowBQYDK2VwAyEAD5JXIarN0AbYspkqpqiZJskUAXXBJLwT2EfX\n\
w4SgdbajUzBRMB0GA1UdDgQWBBSy1zYXRbXmGvzQYYcfQ8G5p+5z0DAfBgNVHSME\n\
GDAWgBSy1zYXRbXmGvzQYYcfQ8G5p+5z0DAPBgNVHRMBAf8EBTADAQH/MAUGAytl\n\
cANBAJ1kRuPcAQbagF8QLhP0XbVprGie87f+Ni9bZmHtA0CgLoGjHhtBl19m7t58\n\
41PZZ4o52AYhWyQlklSgclzWiws=\n\
-----END CERTIFICATE-----\n\
";
const ED_KEY: &str = "\
-----BEGIN PRIVATE KEY-----\n\
MC4CAQAwBQYDK2VwBCIEID+ZIMysE5Qz4M+dB1dasgR7xUZxVCYqNXUL4phXJU9T\n\
-----END PRIVATE KEY-----\n\
";

fn check(cert: &str, key: &str) -> Option<String> {
    x509_key_pair_error(cert.as_bytes(), key.as_bytes())
}

#[test]
fn matching_pairs_pass() {
    assert_eq!(check(EC_CERT, EC_KEY), None);
    assert_eq!(check(RSA_CERT, RSA_KEY), None);
    assert_eq!(check(RSA_CERT, RSA_PKCS8_KEY), None);
    assert_eq!(check(ED_CERT, ED_KEY), None);
    // Text around the blocks and blocks of other types before the key are skipped.
    let key = format!("junk\n{EC_CERT}{EC_KEY}");
    assert_eq!(check(&format!("# a comment\n{EC_CERT}"), &key), None);
}

#[test]
fn keys_of_another_pair_or_type_do_not_match() {
    let mismatch = Some("tls: private key does not match public key".to_owned());
    assert_eq!(check(EC_CERT, EC_OTHER_KEY), mismatch);
    let types = Some("tls: private key type does not match public key type".to_owned());
    assert_eq!(check(EC_CERT, RSA_KEY), types);
    assert_eq!(check(RSA_CERT, ED_KEY), types);
}

/// Go's texts for what is not there.
#[test]
fn missing_pem_is_named_as_go_names_it() {
    let text = |s: &str| Some(s.to_owned());
    assert_eq!(
        check("", EC_KEY),
        text("tls: failed to find any PEM data in certificate input")
    );
    assert_eq!(
        check(EC_KEY, EC_KEY),
        text(
            "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched"
        )
    );
    let two = format!("{EC_KEY}{EC_OTHER_KEY}");
    assert_eq!(
        check(&two, EC_KEY),
        text(
            "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [EC PRIVATE KEY EC PRIVATE KEY]"
        )
    );
    assert_eq!(
        check(EC_CERT, "not pem"),
        text("tls: failed to find any PEM data in key input")
    );
    assert_eq!(
        check(EC_CERT, EC_CERT),
        text("tls: found a certificate rather than a key in the PEM for the private key")
    );
    assert_eq!(
        check(EC_CERT, &format!("{EC_CERT}{RSA_CERT}")),
        text(
            "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: [CERTIFICATE CERTIFICATE]"
        )
    );
}

#[test]
fn unreadable_der_is_refused() {
    let bad_cert = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
    assert_eq!(
        check(bad_cert, EC_KEY),
        Some("x509: malformed certificate".to_owned())
    );
    let bad_key = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
    assert_eq!(
        check(EC_CERT, bad_key),
        Some("tls: failed to parse private key".to_owned())
    );
}
