/// The pages' script, plain JavaScript in four parts (what every page shares, the contacts, the
/// audit, and the tools: time travel, verify and the picker), served as one file. It builds the
/// pages from the JSON API with DOM calls and text nodes only, never from HTML strings, so a
/// contact's values can never become markup.
enum PageScript {}
