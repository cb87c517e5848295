import AppStoreServer
import VerdictStorage

extension RetentionMessageState {
    /// The recorded state as Apple's review state (the store keeps it as the text Apple sent).
    var review: ReviewState { ReviewState(rawValue: state) }
}
