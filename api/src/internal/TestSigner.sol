// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A smart account for tests of ERC-1271: a signature is valid when its owner signed the hash.
contract TestSigner {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// Deploys TestSigner at a CREATE2 address, so an account can sign before it exists (ERC-6492).
contract TestSignerFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new TestSigner{salt: salt}(owner));
    }
}
