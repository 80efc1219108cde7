/// `synclab bench`: filled in below.
enum BenchCommand {
    static func main(_ arguments: [String]) -> Int32 {
        print("bench: not yet")
        return 1
    }
}
