//! The cipher suite of a TLS connection chosen as Go's `crypto/tls` server chooses it
//! (kube-apiserver's): by the server's order, not the client's, AES-GCM first (the
//! 128-bit key before the 256-bit one) when both ends have AES hardware, ChaCha20-Poly1305
//! first otherwise (`handshake_server.go`, `handshake_server_tls13.go`:
//! `cipherSuitesPreferenceOrder` and its `NoAES` variant, chosen by
//! `hasAESGCMHardwareSupport` and `aesgcmPreferred`).
//!
//! rustls follows the client's order by default, and its default order puts AES-256
//! first: Python's and OpenSSL's clients, which list AES-256-GCM first, got AES-256 from
//! kapi and AES-128 from kube-apiserver, and every byte a watch sent cost 14 AES rounds
//! instead of 10.

use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::server::ClientHello;
use rustls::{CipherSuite, ServerConfig};

/// A server's TLS configuration in Go's two orders of cipher suites, each choosing by
/// its own order; which one serves a connection depends on the client's hello.
#[derive(Debug, Clone)]
pub struct GoSuiteOrder {
    aes_first: Arc<ServerConfig>,
    chacha_first: Arc<ServerConfig>,
}

impl GoSuiteOrder {
    /// The two configurations `make` builds: AES-GCM first (`true`) and ChaCha20 first.
    pub(super) fn build<E>(
        mut make: impl FnMut(bool) -> Result<ServerConfig, E>,
    ) -> Result<Self, E> {
        Ok(GoSuiteOrder {
            aes_first: Arc::new(make(true)?),
            chacha_first: Arc::new(make(false)?),
        })
    }

    /// The configuration for a client: AES-GCM first when this machine and the client
    /// (its first suite Go knows is an AES-GCM one) have AES hardware.
    pub(super) fn for_client(&self, hello: &ClientHello<'_>) -> Arc<ServerConfig> {
        if aes_hardware() && aesgcm_preferred(hello.cipher_suites()) {
            self.aes_first.clone()
        } else {
            self.chacha_first.clone()
        }
    }
}

/// rustls's ring provider with its suites in Go's order: AES-128-GCM, AES-256-GCM,
/// ChaCha20-Poly1305 (ChaCha20 first without `aes`), within each TLS version. The
/// configuration must choose by it (`ignore_client_order`).
pub(super) fn provider(aes: bool) -> CryptoProvider {
    let mut provider = rustls::crypto::ring::default_provider();
    // Stable: suites of the same cipher keep their relative order (ECDSA and RSA
    // certificates never share a connection, and versions are chosen first).
    provider
        .cipher_suites
        .sort_by_key(|suite| rank(suite.suite(), aes));
    provider
}

/// A suite's place in Go's preference order of its version.
fn rank(suite: CipherSuite, aes: bool) -> u8 {
    use CipherSuite::*;
    let (aes128, aes256, chacha) = (0, 1, 2);
    let cipher = match suite {
        TLS13_AES_128_GCM_SHA256
        | TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
        | TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 => aes128,
        TLS13_AES_256_GCM_SHA384
        | TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384
        | TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 => aes256,
        TLS13_CHACHA20_POLY1305_SHA256
        | TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256
        | TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 => chacha,
        _ => return 3,
    };
    match (aes, cipher) {
        (true, c) => c,
        // Go's NoAES order: ChaCha20, then AES-128, then AES-256.
        (false, c) if c == chacha => 0,
        (false, c) => c + 1,
    }
}

/// Go's `aesgcmPreferred`: whether the first suite of the client's list that Go
/// implements is an AES-GCM one (a client without AES hardware lists ChaCha20 first).
fn aesgcm_preferred(client: &[CipherSuite]) -> bool {
    client
        .iter()
        .map(|s| u16::from(*s))
        .find(|id| GO_SUITES.contains(id))
        .is_some_and(|id| GO_AESGCM.contains(&id))
}

/// Go's `hasAESGCMHardwareSupport` on this machine.
fn aes_hardware() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("aes")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
    }
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("aes")
            && std::arch::is_aarch64_feature_detected!("pmull")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// The suites Go implements (`cipherSuites`, `cipherSuitesTLS13`), by their IDs.
const GO_SUITES: [u16; 25] = [
    0x1301, 0x1302, 0x1303, // TLS 1.3
    0xcca9, 0xcca8, // ECDHE ChaCha20
    0xc02f, 0xc02b, 0xc030, 0xc02c, // ECDHE AES-GCM
    0xc027, 0xc023, 0xc013, 0xc009, 0xc014, 0xc00a, // ECDHE AES-CBC
    0x009c, 0x009d, 0x003c, 0x002f, 0x0035, // RSA key exchange
    0xc012, 0x000a, // 3DES
    0x0005, 0xc011, 0xc007, // RC4
];

/// Go's `aesgcmCiphers`.
const GO_AESGCM: [u16; 6] = [0x1301, 0x1302, 0xc02f, 0xc02b, 0xc030, 0xc02c];

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use CipherSuite::*;

    #[test]
    fn the_client_s_first_known_suite_decides() {
        // Python's (OpenSSL's) order.
        assert!(aesgcm_preferred(&[
            TLS13_AES_256_GCM_SHA384,
            TLS13_CHACHA20_POLY1305_SHA256,
            TLS13_AES_128_GCM_SHA256,
        ]));
        // A phone without AES hardware.
        assert!(!aesgcm_preferred(&[
            TLS13_CHACHA20_POLY1305_SHA256,
            TLS13_AES_128_GCM_SHA256,
        ]));
        // Suites Go does not know are skipped; the RSA key exchange's GCM suites are
        // not among Go's AES-GCM ones.
        assert!(aesgcm_preferred(&[
            CipherSuite::Unknown(0x0a0a),
            TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        ]));
        assert!(!aesgcm_preferred(&[TLS_RSA_WITH_AES_128_GCM_SHA256]));
        assert!(!aesgcm_preferred(&[]));
    }

    #[test]
    fn suites_follow_go_s_orders() {
        let provider = rustls::crypto::ring::default_provider();
        let order = |aes| {
            let mut suites: Vec<CipherSuite> =
                provider.cipher_suites.iter().map(|s| s.suite()).collect();
            suites.sort_by_key(|s| rank(*s, aes));
            suites
        };
        let aes = order(true);
        let tls13: Vec<_> = aes
            .iter()
            .filter(|s| format!("{s:?}").starts_with("TLS13"))
            .collect();
        assert_eq!(
            tls13,
            [
                &TLS13_AES_128_GCM_SHA256,
                &TLS13_AES_256_GCM_SHA384,
                &TLS13_CHACHA20_POLY1305_SHA256
            ]
        );
        let rsa: Vec<_> = aes
            .iter()
            .filter(|s| format!("{s:?}").contains("_RSA_"))
            .collect();
        assert_eq!(
            rsa,
            [
                &TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                &TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
                &TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256
            ]
        );
        let chacha = order(false);
        let tls13: Vec<_> = chacha
            .iter()
            .filter(|s| format!("{s:?}").starts_with("TLS13"))
            .collect();
        assert_eq!(
            tls13,
            [
                &TLS13_CHACHA20_POLY1305_SHA256,
                &TLS13_AES_128_GCM_SHA256,
                &TLS13_AES_256_GCM_SHA384
            ]
        );
    }

    /// A full handshake in memory: a client listing AES-256-GCM first (as Python's and
    /// OpenSSL's do) gets AES-128-GCM, as from kube-apiserver.
    #[test]
    fn a_client_listing_aes_256_first_gets_go_s_choice() {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
            .unwrap()
            .self_signed(&key)
            .unwrap();
        let orders = super::super::TlsConfig::new(
            vec![cert.der().clone()],
            rustls_pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .server_configs()
        .unwrap();
        let mut roots = rustls::RootCertStore::empty();
        roots.add(cert.der().clone()).unwrap();
        let client_config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
        assert_eq!(
            client_config.crypto_provider().cipher_suites[0].suite(),
            TLS13_AES_256_GCM_SHA384
        );
        let mut client =
            rustls::ClientConnection::new(Arc::new(client_config), "localhost".try_into().unwrap())
                .unwrap();
        let mut hello = Vec::new();
        client.write_tls(&mut hello).unwrap();
        let mut acceptor = rustls::server::Acceptor::default();
        acceptor.read_tls(&mut &hello[..]).unwrap();
        let accepted = acceptor.accept().map_err(|(e, _)| e).unwrap().unwrap();
        let config = orders.for_client(&accepted.client_hello());
        let mut server = accepted
            .into_connection(config)
            .map_err(|(e, _)| e)
            .unwrap();
        while client.is_handshaking() || server.is_handshaking() {
            let mut bytes = Vec::new();
            server.write_tls(&mut bytes).unwrap();
            client.read_tls(&mut &bytes[..]).unwrap();
            client.process_new_packets().unwrap();
            let mut bytes = Vec::new();
            client.write_tls(&mut bytes).unwrap();
            server.read_tls(&mut &bytes[..]).unwrap();
            server.process_new_packets().unwrap();
        }
        let expected = if aes_hardware() {
            TLS13_AES_128_GCM_SHA256
        } else {
            TLS13_CHACHA20_POLY1305_SHA256
        };
        assert_eq!(server.negotiated_cipher_suite().unwrap().suite(), expected);
        assert_eq!(client.negotiated_cipher_suite().unwrap().suite(), expected);
    }
}
