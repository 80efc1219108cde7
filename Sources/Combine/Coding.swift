import Foundation

/// Combine's `TopLevelDecoder`: what `decode(type:decoder:)` decodes with.
public protocol TopLevelDecoder {
    associatedtype Input
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

/// Combine's `TopLevelEncoder`: what `encode(encoder:)` encodes with.
public protocol TopLevelEncoder {
    associatedtype Output
    func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONDecoder: TopLevelDecoder {}
extension JSONEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}

extension Publishers {
    /// Combine's `decode(type:decoder:)`: each value decoded; an error ends the stream.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>:
        Publisher where Upstream.Output == Coder.Input {
        public typealias Failure = any Error
        public let upstream: Upstream
        let decoder: Coder

        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let decoder = self.decoder
            upstream.receive(subscriber: TryMapLink(downstream: subscriber) {
                try decoder.decode(Output.self, from: $0)
            })
        }
    }

    /// Combine's `encode(encoder:)`: each value encoded; an error ends the stream.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
    where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        let encoder: Coder

        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let encoder = self.encoder
            upstream.receive(subscriber: TryMapLink(downstream: subscriber) {
                try encoder.encode($0)
            })
        }
    }
}

extension Publisher {
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder)
        -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publisher where Output: Encodable {
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}
