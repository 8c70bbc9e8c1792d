extension UInt8 {
    /// The byte with ASCII `A`–`Z` turned into `a`–`z`; every other byte as it is. Host names are compared
    /// ignoring ASCII case only.
    var asciiLowercased: UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self
    }
}
