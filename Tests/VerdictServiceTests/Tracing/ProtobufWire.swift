import Foundation

/// A protocol-buffers message read field by field (the wire format only: varints, 64- and 32-bit
/// values, length-delimited bytes), enough to read what an OTLP exporter sends without generated
/// types. Fields keep their order; a field repeated on the wire appears once per occurrence.
struct ProtobufMessage {
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case fixed32(UInt32)
        case bytes([UInt8])
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var fields: [(number: Int, value: Value)] = []

    init(_ bytes: [UInt8]) throws {
        var index = 0
        func varint() throws -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard index < bytes.count, shift < 64 else { throw Malformed(description: "truncated varint") }
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
        }
        func take(_ count: Int) throws -> [UInt8] {
            guard count >= 0, index + count <= bytes.count else { throw Malformed(description: "truncated field") }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }
        func littleEndian(_ count: Int) throws -> UInt64 {
            try take(count).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        while index < bytes.count {
            let key = try varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: fields.append((number, .varint(try varint())))
            case 1: fields.append((number, .fixed64(try littleEndian(8))))
            case 2: fields.append((number, .bytes(try take(Int(try varint())))))
            case 5: fields.append((number, .fixed32(UInt32(try littleEndian(4)))))
            default: throw Malformed(description: "wire type \(key & 7) of field \(number)")
            }
        }
    }

    /// The length-delimited occurrences of field `number`.
    func bytes(_ number: Int) -> [[UInt8]] {
        fields.compactMap { field in
            guard field.number == number, case .bytes(let bytes) = field.value else { return nil }
            return bytes
        }
    }

    /// The messages of field `number`.
    func messages(_ number: Int) throws -> [ProtobufMessage] {
        try bytes(number).map(ProtobufMessage.init)
    }

    /// The first message of field `number`, if any.
    func message(_ number: Int) throws -> ProtobufMessage? {
        try messages(number).first
    }

    /// The string of field `number`, if any.
    func string(_ number: Int) -> String? {
        bytes(number).first.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Field `number` as lowercase hex (ids), if any.
    func hex(_ number: Int) -> String? {
        bytes(number).first.map { $0.map { String(format: "%02x", $0) }.joined() }
    }

    /// The varint or fixed value of field `number`, if any.
    func integer(_ number: Int) -> UInt64? {
        for field in fields where field.number == number {
            switch field.value {
            case .varint(let value), .fixed64(let value): return value
            case .fixed32(let value): return UInt64(value)
            case .bytes: continue
            }
        }
        return nil
    }
}
