/// Configure Default Message (`PUT /inApps/v1/messaging/default/{productId}/{locale}`), and Get
/// Default Message's answer: the message shown for a product and locale when the realtime answer
/// is late, missing or malformed (after the App Store Connect retention message). Its one member,
/// `messageIdentifier`, is a realtime answer's `message` too.
public typealias DefaultConfigurationRequest = RetentionMessageReference
