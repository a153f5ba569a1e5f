package io.ringwatch.server;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;

/**
 * A self-signed certificate for 127.0.0.1 and localhost and its PKCS#8 key, made by the JDK's
 * keytool and written as PEM files, for the TLS tests.
 *
 * @param cert the certificate's PEM file.
 * @param key  the key's PEM file.
 */
record SelfSignedPem(Path cert, Path key)
{
    /**
     * Makes a certificate valid for two days.
     *
     * @param dir  where its files go.
     * @param name its alias, common name and file names.
     * @return its files.
     * @throws Exception if keytool fails or the store cannot be read.
     */
    static SelfSignedPem make(final Path dir, final String name) throws Exception
    {
        final Path store = dir.resolve(name + ".p12");
        final char[] password = "changeit".toCharArray();
        final Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=" + name, "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-keystore", store.toString(),
            "-storetype", "PKCS12", "-storepass", new String(password), "-keypass", new String(password))
            .redirectErrorStream(true).start();
        final String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0)
        {
            throw new IllegalStateException("keytool failed: " + output);
        }
        final KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(store.toFile()))
        {
            keyStore.load(in, password);
        }
        final Certificate certificate = keyStore.getCertificate(name);
        final Path cert = dir.resolve(name + ".crt");
        final Path key = dir.resolve(name + ".key");
        Files.write(cert, pem("CERTIFICATE", certificate.getEncoded()));
        Files.write(key, pem("PRIVATE KEY", keyStore.getKey(name, password).getEncoded()));
        return new SelfSignedPem(cert, key);
    }

    private static List<String> pem(final String type, final byte[] der)
    {
        return List.of("-----BEGIN " + type + "-----",
            Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der),
            "-----END " + type + "-----");
    }
}
