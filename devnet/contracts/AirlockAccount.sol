// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/accounts/SimpleAccount.sol";
import "@openzeppelin/contracts/interfaces/IERC1271.sol";
import "./SessionKeys.sol";

/// @title Airlock smart account (ERC-4337, EntryPoint v0.8)
/// @notice eth-infinitism's SimpleAccount (same ABI: `execute`, `executeBatch`, owner = one ECDSA key signing the
///         v0.8 userOpHash) with session keys and ERC-1271, so permissionless's `toSimpleSmartAccount` drives
///         it unchanged and sign-in verifies its signatures. Deployed behind an ERC-1967 proxy by
///         `AirlockAccountFactory`.
contract AirlockAccount is SimpleAccount, SessionKeys, IERC1271 {
    constructor(IEntryPoint anEntryPoint) SimpleAccount(anEntryPoint) {}

    /// @dev The owner signs anything; any other signer must hold a live session that allows every call.
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        override
        returns (uint256 validationData)
    {
        // tryRecover: a malformed signature fails validation (AA24) instead of reverting it (AA23).
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(userOpHash, userOp.signature);
        if (recoverError != ECDSA.RecoverError.NoError) return SIG_VALIDATION_FAILED;
        if (signer == owner) return SIG_VALIDATION_SUCCESS;
        return _validateSession(userOp, signer);
    }

    /// @notice ERC-1271: only the owner signs for the account; a session key never does.
    function isValidSignature(bytes32 hash, bytes memory signature) public view returns (bytes4) {
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(hash, signature);
        bool valid = recoverError == ECDSA.RecoverError.NoError && signer == owner;
        return valid ? this.isValidSignature.selector : bytes4(0xffffffff);
    }

    function supportsInterface(bytes4 interfaceId) external pure override returns (bool) {
        return interfaceId == type(IERC1271).interfaceId || interfaceId == type(IAccount).interfaceId
            || interfaceId == type(IERC721Receiver).interfaceId || interfaceId == type(IERC1155Receiver).interfaceId
            || interfaceId == type(IERC165).interfaceId;
    }

    function _requireSessionAdmin() internal view override {
        require(msg.sender == address(this) || msg.sender == address(entryPoint()), "only the account or EntryPoint");
    }
}
