// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title On-chain token metadata
/// @notice Builds `data:application/json;base64,…` metadata with an SVG image inside, so the devnet's NFTs
///         show a name and a picture with no server to host them.
library DataUri {
    bytes internal constant ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// @notice ERC-721/1155 metadata JSON (name, description, image) as a data: URI.
    function metadata(string memory name, string memory description, string memory svg)
        internal
        pure
        returns (string memory)
    {
        bytes memory json = abi.encodePacked(
            '{"name":"', name, '","description":"', description, '","image":"data:image/svg+xml;base64,',
            base64(bytes(svg)), '"}'
        );
        return string.concat("data:application/json;base64,", base64(json));
    }

    /// @notice A 200×200 card: a coloured square with a large label and a small caption.
    function card(string memory fill, string memory label, string memory caption)
        internal
        pure
        returns (string memory)
    {
        return string(
            abi.encodePacked(
                '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><rect width="200" height="200" rx="24" fill="',
                fill,
                '"/><text x="100" y="112" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">',
                label,
                '</text><text x="100" y="164" font-family="sans-serif" font-size="16" fill="#fff" text-anchor="middle">',
                caption,
                "</text></svg>"
            )
        );
    }

    /// @notice One of eight colours, picked by `seed`.
    function color(uint256 seed) internal pure returns (string memory) {
        string[8] memory palette =
            ["#6d28d9", "#2563eb", "#0891b2", "#059669", "#ca8a04", "#ea580c", "#dc2626", "#db2777"];
        return palette[seed % 8];
    }

    function decimal(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 rest = value; rest != 0; rest /= 10) digits++;
        bytes memory out = new bytes(digits);
        for (; value != 0; value /= 10) out[--digits] = bytes1(uint8(48 + (value % 10)));
        return string(out);
    }

    function base64(bytes memory data) internal pure returns (string memory) {
        bytes memory out = new bytes(4 * ((data.length + 2) / 3));
        uint256 j;
        for (uint256 i = 0; i < data.length; i += 3) {
            uint256 n = uint256(uint8(data[i])) << 16;
            if (i + 1 < data.length) n |= uint256(uint8(data[i + 1])) << 8;
            if (i + 2 < data.length) n |= uint256(uint8(data[i + 2]));
            out[j++] = ALPHABET[(n >> 18) & 63];
            out[j++] = ALPHABET[(n >> 12) & 63];
            out[j++] = i + 1 < data.length ? ALPHABET[(n >> 6) & 63] : bytes1("=");
            out[j++] = i + 2 < data.length ? ALPHABET[n & 63] : bytes1("=");
        }
        return string(out);
    }
}
