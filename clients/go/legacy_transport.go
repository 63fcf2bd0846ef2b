package cardkey

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rc4"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Transport encryption modes of the legacy aggregate entry (docs/protocol.md §5.5).
const (
	// RC4 without keystream drop, keyed with the UTF-8 bytes of the transport key.
	RC4 = "rc4"
	// AES is AES-256-CBC, key SHA-256(transport key), PKCS#7, a random 16-byte IV prefixed.
	AES = "aes"
	// AESGCM is AES-256-GCM (authenticated: use it for new programs), a random 12-byte IV, the 16-byte tag last.
	AESGCM = "aes-gcm"
)

// LegacyTransport is the project's transport_encryption (RC4, AES or AESGCM) and its transport_key,
// used as its UTF-8 text.
type LegacyTransport struct {
	Mode string
	Key  string
}

// String never shows the key.
func (t LegacyTransport) String() string {
	return fmt.Sprintf("cardkey.LegacyTransport{Mode: %s, Key: %s}", t.Mode, redacted(t.Key))
}

// GoString is String, for %#v.
func (t LegacyTransport) GoString() string { return t.String() }

func (t LegacyTransport) validate() error {
	if t.Mode != RC4 && t.Mode != AES && t.Mode != AESGCM {
		return errors.New("cardkey: LegacyTransport.Mode must be rc4, aes or aes-gcm")
	}
	if t.Key == "" {
		return errors.New("cardkey: LegacyTransport.Key is required")
	}
	return nil
}

// Seal encrypts text into the base64 data of a request (or an answer). iv is for the test vectors
// only: nil draws a random one.
func (t LegacyTransport) Seal(text string, iv []byte) (string, error) {
	plain := []byte(text)
	var sealed []byte
	switch t.Mode {
	case RC4:
		sealed = rc4XOR([]byte(t.Key), plain)
	case AES:
		block := t.aes()
		if iv == nil {
			iv = random(aes.BlockSize)
		}
		if len(iv) != aes.BlockSize {
			return "", errors.New("cardkey: an AES-CBC IV is 16 bytes")
		}
		pad := aes.BlockSize - len(plain)%aes.BlockSize
		padded := append(append([]byte{}, plain...), []byte(strings.Repeat(string(rune(pad)), pad))...)
		out := make([]byte, len(padded))
		cipher.NewCBCEncrypter(block, iv).CryptBlocks(out, padded)
		sealed = append(append([]byte{}, iv...), out...)
	case AESGCM:
		gcm, _ := cipher.NewGCM(t.aes())
		if iv == nil {
			iv = random(gcm.NonceSize())
		}
		if len(iv) != gcm.NonceSize() {
			return "", errors.New("cardkey: an AES-GCM IV is 12 bytes")
		}
		sealed = gcm.Seal(append([]byte{}, iv...), iv, plain, nil)
	default:
		return "", t.validate()
	}
	return base64.StdEncoding.EncodeToString(sealed), nil
}

// Open decrypts base64 data into its UTF-8 text; an error when it does not open (wrong key, tampered).
func (t LegacyTransport) Open(data string) (string, error) {
	sealed, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(data), ""))
	if err != nil {
		return "", errors.New("not base64")
	}
	var plain []byte
	switch t.Mode {
	case RC4:
		plain = rc4XOR([]byte(t.Key), sealed)
	case AES:
		if len(sealed) < 2*aes.BlockSize || len(sealed)%aes.BlockSize != 0 {
			return "", errors.New("ciphertext too short or not whole blocks")
		}
		out := make([]byte, len(sealed)-aes.BlockSize)
		cipher.NewCBCDecrypter(t.aes(), sealed[:aes.BlockSize]).CryptBlocks(out, sealed[aes.BlockSize:])
		pad := int(out[len(out)-1])
		if pad < 1 || pad > aes.BlockSize || strings.Repeat(string(rune(pad)), pad) != string(out[len(out)-pad:]) {
			return "", errors.New("bad padding")
		}
		plain = out[:len(out)-pad]
	case AESGCM:
		gcm, _ := cipher.NewGCM(t.aes())
		if len(sealed) < gcm.NonceSize()+gcm.Overhead() {
			return "", errors.New("ciphertext too short")
		}
		plain, err = gcm.Open(nil, sealed[:gcm.NonceSize()], sealed[gcm.NonceSize():], nil)
		if err != nil {
			return "", errors.New("authentication tag mismatch")
		}
	default:
		return "", t.validate()
	}
	if !utf8.Valid(plain) {
		return "", errors.New("not UTF-8 text")
	}
	return string(plain), nil
}

func (t LegacyTransport) aes() cipher.Block {
	key := sha256.Sum256([]byte(t.Key))
	block, _ := aes.NewCipher(key[:]) // a 32-byte key never fails
	return block
}

// rc4XOR is RC4 without keystream drop (crypto/rc4: the legacy transport needs it, it is not a choice).
func rc4XOR(key, data []byte) []byte {
	stream, err := rc4.NewCipher(key)
	if err != nil { // a key over 256 bytes: RC4 keys with its first 256, as the service does
		stream, _ = rc4.NewCipher(key[:256])
	}
	out := make([]byte, len(data))
	stream.XORKeyStream(out, data)
	return out
}

func random(n int) []byte {
	out := make([]byte, n)
	if _, err := rand.Read(out); err != nil {
		panic("cardkey: no randomness for an IV: " + err.Error())
	}
	return out
}
