/// Combine's `Record`: a stream written down in advance, its values then its completion,
/// replayed to each subscriber as it asks.
public struct Record<Output, Failure: Error>: Publisher {
    /// The values and the completion, written in order.
    public struct Recording {
        public private(set) var output: [Output]
        public private(set) var completion: Subscribers.Completion<Failure>
        private var isComplete: Bool

        /// An empty recording, still open: `receive` adds to it.
        public init() {
            output = []
            completion = .finished
            isComplete = false
        }

        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isComplete = true
        }

        /// Adds a value; a recording already completed stops the program, as Apple's does.
        public mutating func receive(_ input: Output) {
            precondition(!isComplete, "Record.Recording: a value received after its completion")
            output.append(input)
        }

        /// Ends the recording; a second completion stops the program, as Apple's does.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!isComplete, "Record.Recording: a second completion")
            self.completion = completion
            isComplete = true
        }
    }

    public let recording: Recording

    /// Records what `record` writes; left open, the recording finishes.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.init(recording: recording)
    }

    public init(recording: Recording) {
        self.recording = recording
    }

    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.init(recording: Recording(output: output, completion: completion))
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        let values = Publishers.Sequence<[Output], Failure>(sequence: recording.output)
        switch recording.completion {
        case .finished:
            values.receive(subscriber: subscriber)
        case .failure(let error):
            Publishers.Concatenate(prefix: values, suffix: Fail(error: error))
                .receive(subscriber: subscriber)
        }
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output, completion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        output = try container.decode([Output].self, forKey: .output)
        completion = try container.decode(Subscribers.Completion<Failure>.self,
                                          forKey: .completion)
        isComplete = true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
