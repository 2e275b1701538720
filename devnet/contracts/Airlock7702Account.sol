// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@account-abstraction/contracts/accounts/Simple7702Account.sol";
import "./SessionKeys.sol";

/// @title Airlock EIP-7702 account
/// @notice eth-infinitism's Simple7702Account (same ABI; the EOA delegating to it is its own owner, through
///         EntryPoint v0.8) with session keys, so viem's `toSimple7702SmartAccount({ implementation })` drives it.
contract Airlock7702Account is Simple7702Account, SessionKeys {
    /// @dev The EOA's own key signs anything; any other signer must hold a live session that allows every call.
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        override
        returns (uint256 validationData)
    {
        // tryRecover: a malformed signature fails validation (AA24) instead of reverting it (AA23).
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(userOpHash, userOp.signature);
        if (recoverError != ECDSA.RecoverError.NoError) return SIG_VALIDATION_FAILED;
        if (signer == address(this)) return SIG_VALIDATION_SUCCESS;
        return _validateSession(userOp, signer);
    }

    function _requireSessionAdmin() internal view override {
        require(msg.sender == address(this) || msg.sender == address(entryPoint()), "only the account or EntryPoint");
    }
}
