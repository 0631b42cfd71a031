package io.triplerpc.conformance;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Turns the runner's private keys, PEM RSA keys in PKCS#1 form ({@code RSA PRIVATE KEY}, which the JDK
 * and so Netty's TLS without BouncyCastle cannot read), into PKCS#8 PEM ({@code PRIVATE KEY}): the same
 * key wrapped with its algorithm. Any other PEM passes through.
 */
final class RunnerKeys {

  /** AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL }. */
  private static final byte[] RSA_ALGORITHM = {
      0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
  private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};

  private RunnerKeys() {}

  static byte[] toPkcs8Pem(byte[] pem) {
    String text = new String(pem, StandardCharsets.US_ASCII);
    if (!text.contains("-----BEGIN RSA PRIVATE KEY-----")) {
      return pem;
    }
    byte[] pkcs1 = Base64.getDecoder().decode(text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", ""));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(VERSION_0);
    body.writeBytes(RSA_ALGORITHM);
    body.write(0x04);
    writeLength(body, pkcs1.length);
    body.writeBytes(pkcs1);
    ByteArrayOutputStream pkcs8 = new ByteArrayOutputStream();
    pkcs8.write(0x30);
    writeLength(pkcs8, body.size());
    pkcs8.writeBytes(body.toByteArray());
    return ("-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(pkcs8.toByteArray())
        + "\n-----END PRIVATE KEY-----\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** A DER length: short form below 128, else the count of big-endian bytes that follow. */
  private static void writeLength(ByteArrayOutputStream out, int length) {
    if (length < 0x80) {
      out.write(length);
      return;
    }
    int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
    out.write(0x80 | bytes);
    for (int i = bytes - 1; i >= 0; i--) {
      out.write(length >>> (8 * i));
    }
  }
}
