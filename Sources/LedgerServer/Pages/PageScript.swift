/// The pages' script.
enum PageScript {
    static let core = ""
    static let contacts = ""
    static let audit = ""
    static let tools = ""
}
