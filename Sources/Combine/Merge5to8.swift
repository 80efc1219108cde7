extension Publishers {
    /// Combine's `Merge5`: the values of five, in the order they come.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        E: Publisher>: Publisher
    where A.Output == B.Output, B.Output == C.Output, C.Output == D.Output, D.Output == E.Output,
          A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure,
          D.Failure == E.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            Merge(Merge4(a, b, c, d), e)
                .receive(subscriber: subscriber)
        }
    }

    /// Combine's `Merge6`: the values of six, in the order they come.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        F: Publisher>: Publisher
    where A.Output == B.Output, B.Output == C.Output, C.Output == D.Output, D.Output == E.Output,
          E.Output == F.Output, A.Failure == B.Failure, B.Failure == C.Failure,
          C.Failure == D.Failure, D.Failure == E.Failure, E.Failure == F.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            Merge(Merge5(a, b, c, d, e), f)
                .receive(subscriber: subscriber)
        }
    }

    /// Combine's `Merge7`: the values of seven, in the order they come.
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        F: Publisher, G: Publisher>: Publisher
    where A.Output == B.Output, B.Output == C.Output, C.Output == D.Output, D.Output == E.Output,
          E.Output == F.Output, F.Output == G.Output, A.Failure == B.Failure,
          B.Failure == C.Failure, C.Failure == D.Failure, D.Failure == E.Failure,
          E.Failure == F.Failure, F.Failure == G.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            Merge(Merge6(a, b, c, d, e, f), g)
                .receive(subscriber: subscriber)
        }
    }

    /// Combine's `Merge8`: the values of eight, in the order they come.
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        F: Publisher, G: Publisher, H: Publisher>: Publisher
    where A.Output == B.Output, B.Output == C.Output, C.Output == D.Output, D.Output == E.Output,
          E.Output == F.Output, F.Output == G.Output, G.Output == H.Output, A.Failure == B.Failure,
          B.Failure == C.Failure, C.Failure == D.Failure, D.Failure == E.Failure,
          E.Failure == F.Failure, F.Failure == G.Failure, G.Failure == H.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G
        public let h: H

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            Merge(Merge7(a, b, c, d, e, f, g), h)
                .receive(subscriber: subscriber)
        }
    }
}

extension Publisher {
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where B.Output == Output, C.Output == Output, D.Output == Output, E.Output == Output,
          B.Failure == Failure, C.Failure == Failure, D.Failure == Failure, E.Failure == Failure {
        Publishers.Merge5(self, b, c, d, e)
    }

    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where B.Output == Output, C.Output == Output, D.Output == Output, E.Output == Output,
          F.Output == Output, B.Failure == Failure, C.Failure == Failure, D.Failure == Failure,
          E.Failure == Failure, F.Failure == Failure {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where B.Output == Output, C.Output == Output, D.Output == Output, E.Output == Output,
          F.Output == Output, G.Output == Output, B.Failure == Failure, C.Failure == Failure,
          D.Failure == Failure, E.Failure == Failure, F.Failure == Failure, G.Failure == Failure {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where B.Output == Output, C.Output == Output, D.Output == Output, E.Output == Output,
          F.Output == Output, G.Output == Output, H.Output == Output, B.Failure == Failure,
          C.Failure == Failure, D.Failure == Failure, E.Failure == Failure, F.Failure == Failure,
          G.Failure == Failure, H.Failure == Failure {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}
