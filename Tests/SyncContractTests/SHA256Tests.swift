import Kernel
import SyncContract
import Testing

@Suite("SHA256")
struct SHA256Tests {
    static func hex(_ text: String) -> String {
        SHA256.hexDigest(Array(text.utf8))
    }

    @Test("NIST FIPS 180-2 example vectors")
    func nistVectors() {
        #expect(Self.hex("")
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex("abc")
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let long896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
            + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(Self.hex(long896)
            == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("one million 'a'")
    func millionA() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(bytes)
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("digest is 32 bytes and hexDigest is its lowercase hex")
    func digestShape() {
        let digest = SHA256.digest(Array("abc".utf8))
        #expect(digest.count == 32)
        #expect(digest.prefix(4) == [0xBA, 0x78, 0x16, 0xBF])
        #expect(SHA256.hex([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
    }

    // Expected values from Python: hashlib.sha256(b"a" * n).hexdigest(), padding boundaries.
    @Test(
        "lengths around the 56- and 64-byte padding boundaries",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        ]
    )
    func paddingBoundaries(length: Int, expected: String) {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SHA256.hexDigest(bytes) == expected)
    }

    @Test(
        "600 seeded random inputs agree with Python's hashlib",
        .enabled(if: PythonReference.isAvailable, PythonReference.missingMessage)
    )
    func agreesWithHashlib() throws {
        var random = Xoshiro256StarStar(seed: 0x5EED_5A25)
        var inputs: [[UInt8]] = []
        for _ in 0..<600 {
            let length = Int(random.int(in: 0...300))
            inputs.append((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        let script = """
            import hashlib, sys
            for line in sys.stdin.read().split("\\n")[:-1]:
                print(hashlib.sha256(bytes.fromhex(line)).hexdigest())
            """
        let input = inputs.map { SHA256.hex($0) + "\n" }.joined()
        let expected = try PythonReference.run(script: script, input: input)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(expected.count == inputs.count)
        for (input, digest) in zip(inputs, expected) {
            #expect(SHA256.hexDigest(input) == digest, "input length \(input.count)")
        }
    }
}
